using SyncData.Shared;

namespace SyncData.Harness;

public static class RuntimeProfiles
{
    public const string DefaultName = "default";
    public const string WorkstationName = "workstation";
    public const string TunedName = "tuned";

    /// <summary>
    /// Every variable any profile sets. A service is always started with all of them removed first, so a profile
    /// never inherits a knob from the runner's own environment. Names verified against .NET 10.0.12 by reading the
    /// settings back inside the process (RuntimeSettingsReader): note GCGen0MaxBudget's capital G — the runtime
    /// ignores DOTNET_GCgen0MaxBudget. Values are hexadecimal, as for every DOTNET_ runtime knob.
    /// </summary>
    public static IReadOnlyList<string> Knobs { get; } =
    [
        "DOTNET_gcServer", "DOTNET_gcConcurrent", "DOTNET_GCDynamicAdaptationMode", "DOTNET_GCGen0MaxBudget",
        "DOTNET_ThreadPool_UnfairSemaphoreSpinLimit",
        "COMPlus_gcServer", "COMPlus_gcConcurrent", "COMPlus_GCDynamicAdaptationMode", "COMPlus_GCGen0MaxBudget",
        "COMPlus_ThreadPool_UnfairSemaphoreSpinLimit", "DOTNET_GCHeapCount", "COMPlus_GCHeapCount",
    ];

    /// <summary>The tuned profile's cap on gen0's budget per heap.</summary>
    public const long TunedGen0MaxBudget = 8L << 20;

    public static RuntimeProfile Default { get; } = new(
        DefaultName,
        "what `dotnet new web` gives on .NET 10: Server GC, concurrent, DATAS on, no knobs",
        new Dictionary<string, string>())
    {
        Check = s => Expect(s, serverGc: true, concurrent: true, datas: true, gen0Cap: null, spinOff: false),
    };

    public static RuntimeProfile Workstation { get; } = new(
        WorkstationName,
        "Workstation GC, concurrent (one heap)",
        new Dictionary<string, string> { ["DOTNET_gcServer"] = "0", ["DOTNET_gcConcurrent"] = "1" })
    {
        Check = s => Expect(s, serverGc: false, concurrent: true, datas: false, gen0Cap: null, spinOff: false),
    };

    public static RuntimeProfile Tuned { get; } = new(
        TunedName,
        "the lab's tuning: Server GC with DATAS off, gen0 budget capped at 8 MiB per heap, no thread-pool spin",
        new Dictionary<string, string>
        {
            ["DOTNET_gcServer"] = "1",
            ["DOTNET_GCDynamicAdaptationMode"] = "0",
            ["DOTNET_GCGen0MaxBudget"] = TunedGen0MaxBudget.ToString("x", System.Globalization.CultureInfo.InvariantCulture),
            ["DOTNET_ThreadPool_UnfairSemaphoreSpinLimit"] = "0",
        })
    {
        Check = s => Expect(s, serverGc: true, concurrent: true, datas: false, gen0Cap: TunedGen0MaxBudget, spinOff: true),
    };

    public static IReadOnlyList<RuntimeProfile> All { get; } = [Default, Workstation, Tuned];

    public static RuntimeProfile? Find(string name) =>
        All.FirstOrDefault(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase));

    public static string Names => string.Join(", ", All.Select(p => p.Name));

    private static string? Expect(RuntimeSettings s, bool serverGc, bool concurrent, bool datas, long? gen0Cap, bool spinOff)
    {
        var wrong = new List<string>();
        if (s.ServerGc != serverGc)
        {
            wrong.Add($"Server GC {(s.ServerGc ? "on" : "off")}, expected {(serverGc ? "on" : "off")}");
        }

        if (s.ConcurrentGc != concurrent)
        {
            wrong.Add($"concurrent GC {(s.ConcurrentGc ? "on" : "off")}, expected {(concurrent ? "on" : "off")}");
        }

        if (s.Datas != datas)
        {
            wrong.Add($"DATAS {(s.Datas ? "on" : "off")}, expected {(datas ? "on" : "off")}");
        }

        if (gen0Cap is { } cap && s.Gen0MaxBudgetBytes != cap)
        {
            wrong.Add($"gen0 max budget {s.Gen0MaxBudgetBytes} bytes, expected {cap}");
        }

        if (spinOff && s.ThreadPoolSpinLimit != 0)
        {
            wrong.Add($"thread-pool spin limit {s.ThreadPoolSpinLimit?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "unknown"}, expected 0");
        }
        else if (!spinOff && s.ThreadPoolSpinLimit == 0)
        {
            wrong.Add("thread-pool spin off, expected the runtime's default");
        }

        return wrong.Count == 0 ? null : string.Join("; ", wrong);
    }

    /// <summary>One line for tables: what the settings are.</summary>
    public static string Describe(RuntimeSettings s) =>
        (s.ServerGc ? $"Server GC ({s.HeapCount} heaps max)" : "Workstation GC")
        + (s.ConcurrentGc ? ", concurrent" : ", non-concurrent")
        + (s.ServerGc ? s.Datas ? ", DATAS on" : ", DATAS off" : "")
        + $", gen0 budget ≤ {s.Gen0MaxBudgetBytes / (1 << 20)} MiB per heap"
        + (s.ThreadPoolSpinLimit is { } spin ? $", thread-pool spin {spin}" : "");
}
