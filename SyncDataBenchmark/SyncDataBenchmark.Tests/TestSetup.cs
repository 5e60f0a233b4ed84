using Xunit;

// Two collections at a time, each its own lab (cluster, services): the labs spend about half their time waiting
// (timeouts, stalls, process starts), so two share the two cores and the suite takes about two thirds as long. No test
// may depend on the machine being otherwise idle (CI machines are busy), so none depends on running alone; the compose
// lab runs alone (Podman's containers on the published ports of the lab's defaults) after the others.
[assembly: CollectionBehavior(MaxParallelThreads = 2)]

namespace SyncDataBenchmark.Tests;
