using System.Runtime.CompilerServices;
using SyncData.Shared;

namespace SyncDataBenchmark.Tests;

internal static class TestSetup
{
    /// <summary>The tests write and read timestamps as the services do: 0001-01-01 is itself, not -infinity.</summary>
    [ModuleInitializer]
    internal static void UseTheServicesTimestampMapping() => AppContext.SetSwitch(NpgsqlSwitches.DisableDateTimeInfinityConversions, true);
}
