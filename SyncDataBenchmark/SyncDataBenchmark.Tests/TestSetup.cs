using Xunit;

// Two collections at a time, each its own lab (cluster, services): the labs spend about half their time waiting
// (timeouts, stalls, process starts), so two share the two cores and the suite takes about two thirds as long. No test
// may depend on the machine being otherwise idle (CI machines are busy), so none depends on running alone. The
// heaviest tier starts first (HeaviestTierFirst), the compose lab among it, its image builds beside the labs.
[assembly: CollectionBehavior(MaxParallelThreads = 2)]
[assembly: TestCollectionOrderer("SyncDataBenchmark.Tests.HeaviestTierFirst", "SyncDataBenchmark.Tests")]

namespace SyncDataBenchmark.Tests;
