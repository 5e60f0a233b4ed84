using System.Runtime.CompilerServices;
using SyncData.ServiceDefaults;
using SyncData.Shared;
using Xunit;

// One test at a time: a lab is two Kestrel processes and a PostgreSQL cluster on a 2-core machine, and two labs at
// once make each other's timings and timeouts meaningless. The fast tier loses nothing by it (milliseconds per test).
[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace SyncDataBenchmark.Tests;

internal static class TestSetup
{
    /// <summary>The tests write and read timestamps as the services do: 0001-01-01 is itself, not -infinity.</summary>
    [ModuleInitializer]
    internal static void UseTheServicesTimestampMapping() => AppContext.SetSwitch(NpgsqlSwitches.DisableDateTimeInfinityConversions, true);
}
