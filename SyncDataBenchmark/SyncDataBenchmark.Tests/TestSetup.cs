using Xunit;

// Two collections at a time, the longest first (HeaviestTierFirst). One at a time left the two cores about half idle
// and took the suite to 26 minutes (7a2809d); two at a time took it to 23 (08506eb). Beside another lab it found
// defects a quiet machine hid: a replication race (ae0153b), a statement count that heard the other lab (ab6a393), and
// EFMerge writing outside its run's transaction after its backend was terminated (RunConnectionGuard).
[assembly: CollectionBehavior(MaxParallelThreads = 2)]
[assembly: TestCollectionOrderer("SyncDataBenchmark.Tests.HeaviestTierFirst", "SyncDataBenchmark.Tests")]

namespace SyncDataBenchmark.Tests;
