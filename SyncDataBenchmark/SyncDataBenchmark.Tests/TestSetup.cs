using Xunit;

// One test at a time: a lab is two Kestrel processes and a PostgreSQL cluster on a 2-core machine, and two labs at
// once make each other's timings and timeouts meaningless. The fast tier loses nothing by it (milliseconds per test).
[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace SyncDataBenchmark.Tests;
