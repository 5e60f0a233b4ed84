using Xunit;

// One collection at a time. Two at a time (MaxParallelThreads = 2, each its own lab) took the suite from 41 to 23
// minutes on a clean clone (08506eb), but beside another lab FaultTests' EFMerge case failed twice in six runs: after its
// target backend was terminated the run went on for seconds and failed with "Transaction is already completed" at the
// verification, not as a write failure (the cause is not found yet). Until it holds on a busy machine, collections run
// one at a time; the order below (longest first) is what two at a time needs.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
[assembly: TestCollectionOrderer("SyncDataBenchmark.Tests.HeaviestTierFirst", "SyncDataBenchmark.Tests")]

namespace SyncDataBenchmark.Tests;
