using System.Text.Json;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.json: the one record of a session, built from what the session measured and written once per job (so a
/// long session stopped midway still leaves its data) and once at the end; every other output derives from it.
/// </summary>
public static class ResultsFile
{
    public const string FileName = "results.json";

    /// <param name="follow">--follow's runs; null without --follow (the record then has no "follow").</param>
    public static BenchResults Build(SessionMeasurements session, BenchLab system, BenchSettings settings, BenchEnvironment environment, bool complete,
        IReadOnlyList<FollowRun>? follow = null)
    {
        // The headline table and the per-case pictures describe one size: the largest one measured so far.
        var headline = settings.Sizes.LastOrDefault(s => session.Runs.Any(r => r.SourceRows == s) || session.PeerRuns.Any(r => r.SourceRows == s), settings.Sizes[0]);
        var anyRun = session.Runs.Count + session.PeerRuns.Count + (follow?.Count ?? 0) > 0;
        var record = new BenchResults
        {
            Complete = complete,
            Passed = complete && anyRun && session.Runs.All(r => r.Ok) && session.PeerRuns.All(r => r.Ok) && session.Problems.Count == 0
                     && (follow ?? []).All(r => r.Ok),
            Environment = environment,
            Parameters = Parameters(session, system, settings, headline),
            Runs = session.Runs.ToList(),
            Peers = session.PeerRuns.ToList(),
            Problems = session.Problems.ToList(),
            Skipped = session.Skipped.ToList(),
            SkippedPeers = session.SkippedPeers.ToList(),
            TriggerCosts = settings.Changed is null ? null : session.TriggerCosts.ToList(),
            Follow = follow?.ToList(),
            Budget = follow is null ? new Budget.BudgetRecord(settings.BudgetSeconds, [.. session.Budgeted], [.. session.BudgetNotes]) : null,
        };
        return record with { Runs = SampleThinning.KeepPictured(record.Runs, ReportTables.Of(record).Summary) };
    }

    /// <summary>Write then rename: a reader (or a crash) never sees half a file.</summary>
    public static async Task WriteAsync(BenchResults report, string path)
    {
        var temporary = path + ".tmp";
        await using (var stream = File.Create(temporary))
        {
            await JsonSerializer.SerializeAsync(stream, report, BenchJsonContext.Default.BenchResults);
        }

        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>A record as written: every report can be made again from it.</summary>
    public static async Task<BenchResults> ReadAsync(string path)
    {
        await using var stream = File.OpenRead(path);
        return await JsonSerializer.DeserializeAsync(stream, BenchJsonContext.Default.BenchResults) ?? throw new JsonException($"{path} is empty.");
    }

    private static BenchParameters Parameters(SessionMeasurements session, BenchLab system, BenchSettings settings, long headline) => new()
    {
        Rows = headline,
        Sizes = settings.Sizes,
        MaxRunSeconds = settings.Sizes.Count > 1 ? settings.MaxRunSeconds : null,
        WarmupPolicy = $"{WarmupRounds(settings.Warmups)} per case after each start of the services, then more until a warm-up compiled less than "
            + $"{settings.JitThresholdMs:0.#} ms in SomeService (at most {Budget.BudgetPlanner.MostWarmups(settings)})"
            + (settings.Sizes.Count == 1 ? "" : settings.Profiles.Count > 1 ? "; at each size after each restart (a size restarts the services once per profile but the one they run under)" : "; at the first size only (the services stay up, warm, across sizes)"),
        Seed = settings.Seed,
        MaxRepeat = settings.MaxRepeat,
        TargetWidth = settings.TargetWidth,
        CaseBudgetSeconds = settings.CaseBudgetSeconds,
        JitThresholdMs = settings.JitThresholdMs,
        MaxWarmups = settings.MaxWarmups,
        SeedMsBySize = session.SeedMs,
        Repeat = settings.Repeat,
        Warmups = settings.Warmups,
        PageSize = settings.PageSize,
        BatchSize = settings.BatchSize,
        Cases = settings.Cases.Patterns,
        Tmpfs = settings.Tmpfs,
        PostgresSettings = system.PostgresSettings,
        Database = settings.Connection is null ? "local" : "existing",
        SeedReused = system.SeedReused,
        SeedMs = system.SeedMs,
        SourceChecksum = system.SourceChecksum,
        Peers = settings.Peers,
        PeerKeys = settings.PeerKeys,
        Charts = settings.Charts,
        SomeServiceUrl = system.SomeServiceAddress,
        SourceUrl = system.SourceUrl?.ToString(),
        ServicesStartedByRunner = system.ServicesStartedByRunner,
        Profiles = system.ServicesStartedByRunner
            ? settings.Profiles.Select(p => new ProfileReport(p.Name, p.Description, p.Environment, p == settings.MainProfile)).ToList()
            : [new ProfileReport(BenchLab.ExternalProfile, "services started by someone else: see each run's reported settings", new Dictionary<string, string>(), true)],
        ProfileCases = settings.Profiles.Count > 1 ? settings.ProfileCases.Patterns : [],
        Links = settings.Links,
        Compressions = settings.Compressions,
        Tables = settings.Tables.Select(t => t.Name).ToList(),
        Changed = settings.Changed?.Select(ChangedShare.Format).ToList(),
        OwnTable = settings.SourceConnection is { } own
            ? new OwnTableReport(OwnTableSource.Describe(own), settings.OwnTable!, settings.OwnTableLeftOut)
            {
                Columns = settings.Tables is [{ Description: { } described }] ? OwnTableColumn.Of(described) : null,
            }
            : null,
    };

    private static string WarmupRounds(int n) => n == 1 ? "at least one untimed warm-up" : $"at least {n} untimed warm-ups";
}
