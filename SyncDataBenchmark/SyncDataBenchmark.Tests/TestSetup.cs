using Xunit;

// Two collections at a time, the longest first (HeaviestTierFirst). One at a time left the two cores about half idle
// and took the suite to 26 minutes on a clean clone (7a2809d); two at a time, 18 with the compose lab's images built
// afresh (fecd182) and 16 with them cached. Beside another lab it found defects a quiet machine hid: a replication race
// (ae0153b), a statement count that heard the other lab (ab6a393), and EFMerge writing outside its run's transaction
// after its backend was terminated (RunConnectionGuard). A test that needs the machine to itself is a defect.
[assembly: CollectionBehavior(MaxParallelThreads = 2)]
[assembly: TestCollectionOrderer("SyncDataBenchmark.Tests.HeaviestTierFirst", "SyncDataBenchmark.Tests")]

namespace SyncDataBenchmark.Tests;
