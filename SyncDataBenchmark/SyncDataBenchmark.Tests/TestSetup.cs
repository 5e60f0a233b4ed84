using Xunit;

// One collection at a time. Two at a time (MaxParallelThreads = 2, each its own lab) took the suite from 41 to 23
// minutes on a clean clone (08506eb), and beside another lab found defects a quiet machine hid: a replication race
// (ae0153b), a statement count that heard the other lab (ab6a393), and EFMerge writing outside its run's transaction
// after its backend was terminated (RunConnectionGuard). Until clean clones show two at a time holds with those fixed,
// collections run one at a time, in xunit's order. Two at a time needs the longest first: with MaxParallelThreads = 2,
// add [assembly: TestCollectionOrderer("SyncDataBenchmark.Tests.HeaviestTierFirst", "SyncDataBenchmark.Tests")].
[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace SyncDataBenchmark.Tests;
