using System.Reflection;
using System.Runtime;
using SyncData.Shared;

namespace SyncData.Measurement;

/// <summary>Reads the runtime settings this process actually runs with (README, "Measuring honestly").</summary>
public static class RuntimeSettingsReader
{
    public static RuntimeSettings Read()
    {
        var gc = GC.GetConfigurationVariables();
        long Number(string key) => gc.TryGetValue(key, out var value) ? Convert.ToInt64(value, System.Globalization.CultureInfo.InvariantCulture) : -1;
        return new RuntimeSettings(
            ServerGc: GCSettings.IsServerGC,
            ConcurrentGc: gc.TryGetValue("ConcurrentGC", out var concurrent) && concurrent is true,
            DynamicAdaptationMode: Number("GCDynamicAdaptationMode"),
            Gen0MaxBudgetBytes: Number("GCGen0MaxBudget"),
            HeapCount: Number("HeapCount"),
            ThreadPoolSpinLimit: ThreadPoolSpinLimit());
    }

    /// <summary>
    /// The thread pool's spin count as it uses it. No public API exposes it, and on .NET 10
    /// DOTNET_ThreadPool_UnfairSemaphoreSpinLimit does not show in AppContext, so it is read from the pool's semaphore;
    /// null when this runtime's internals differ.
    /// </summary>
    private static int? ThreadPoolSpinLimit()
    {
        try
        {
            var worker = typeof(ThreadPool).Assembly.GetType("System.Threading.PortableThreadPool+WorkerThread");
            var semaphore = worker?.GetField("s_semaphore", BindingFlags.NonPublic | BindingFlags.Static)?.GetValue(null);
            return semaphore?.GetType().GetField("_spinCount", BindingFlags.NonPublic | BindingFlags.Instance)?.GetValue(semaphore) as int?;
        }
        catch (Exception ex) when (ex is TargetException or FieldAccessException or TypeLoadException)
        {
            return null;
        }
    }
}
