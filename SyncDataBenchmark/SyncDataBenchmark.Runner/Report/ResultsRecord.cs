using System.Text.Json;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// results.json: the one record of a session, built from what the session measured and written once per job (so a
/// long session stopped midway still leaves its data) and once at the end; every other output derives from it.
/// </summary>
public static class ResultsRecord
{
    public const string FileName = "results.json";

    public static BenchReport Build(BenchPlan plan, BenchRecord session, BenchLab system, BenchSettings settings, BenchEnvironment environment, bool complete)
    {
        // The headline table and the per-case pictures describe one size: the largest one measured so far.
        var measuredSizes = settings.Sizes.Where(s => session.Runs.Any(r => r.SourceRows == s) || session.PeerRuns.Any(r => r.SourceRows == s)).ToList();
        var headline = measuredSizes.LastOrDefault(settings.Sizes[0]);
        var summary = SummaryAt(plan, session, system, settings, headline);
        var anyRun = session.Runs.Count + session.PeerRuns.Count > 0;
        return new BenchReport
        {
            Complete = complete,
            Passed = complete && anyRun && session.Runs.All(r => r.Ok) && session.PeerRuns.All(r => r.Ok) && session.Problems.Count == 0,
            Environment = environment,
            Parameters = Parameters(session, system, settings, headline),
            Summary = summary,
            Runs = SampleThinning.KeepPictured(session.Runs, summary),
            Peers = session.PeerRuns.ToList(),
            Problems = session.Problems.ToList(),
            Growth = settings.Sizes.Count > 1 ? Growth.Build(measuredSizes, rows => SummaryAt(plan, session, system, settings, rows), session.Skipped.Where(s => s.Link == settings.Links[0].Name).ToList()) : [],
            Skipped = session.Skipped.ToList(),
            Links = settings.Links.Count > 1 || settings.Links[0].Shaped
                ? settings.Links.Select(l => new LinkSummary(l.Name, l.RateBitsPerSecond, SummaryAt(plan, session, system, settings, headline, l.Name))).ToList()
                : [],
            SkippedPeers = session.SkippedPeers.ToList(),
        };
    }

    /// <summary>Write then rename: a reader (or a crash) never sees half a file.</summary>
    public static async Task WriteAsync(BenchReport report, string path)
    {
        var temporary = path + ".tmp";
        await using (var stream = File.Create(temporary))
        {
            await JsonSerializer.SerializeAsync(stream, report, BenchJsonContext.Default.BenchReport);
        }

        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>A record as written: every report can be made again from it.</summary>
    public static async Task<BenchReport> ReadAsync(string path)
    {
        await using var stream = File.OpenRead(path);
        return await JsonSerializer.DeserializeAsync(stream, BenchJsonContext.Default.BenchReport) ?? throw new JsonException($"{path} is empty.");
    }

    /// <summary>The rows at one size across one link (default: the first, the headline's).</summary>
    private static List<CaseSummary> SummaryAt(BenchPlan plan, BenchRecord session, BenchLab system, BenchSettings settings, long rows, string? link = null)
    {
        link ??= settings.Links[0].Name;
        bool Skipped(string key, string profile) => session.Skipped.Any(s => s.Rows == rows && s.Case == key && s.Profile == profile && s.Link == link);
        var mainProfile = system.ServicesStartedByRunner ? settings.MainProfile.Name : BenchLab.ExternalProfile;
        var others = settings.Profiles.Skip(1)
            .Select(p => (p.Name, (IReadOnlyList<Combination>)plan.ProfileCombinations.Where(c => !Skipped(c.Key, p.Name)).ToList()))
            .ToList();
        return Summaries.Build(
            plan.Combinations.Where(c => !Skipped(c.Key, settings.MainProfile.Name)).ToList(),
            plan.Peers.Where(p => !Skipped(p.Key, settings.MainProfile.Name)).ToList(),
            session.Runs.Where(r => r.SourceRows == rows && r.Link == link).ToList(),
            session.PeerRuns.Where(r => r.SourceRows == rows && r.Link == link).ToList(),
            mainProfile, others);
    }

    private static BenchParameters Parameters(BenchRecord session, BenchLab system, BenchSettings settings, long headline) => new()
    {
        Rows = headline,
        Sizes = settings.Sizes,
        MaxRunSeconds = settings.Sizes.Count > 1 ? settings.MaxRunSeconds : null,
        WarmupPolicy = settings.Sizes.Count == 1 ? null
            : settings.Profiles.Count > 1 ? $"{WarmupRounds(settings.Warmups)} at every size (each profile restarts the services at every size)"
            : $"{WarmupRounds(settings.Warmups)} at the first size only (the services stay up, warm, across sizes)",
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
        SourceSummary = system.SourceChecksum,
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
    };

    private static string WarmupRounds(int n) => n == 1 ? "one untimed warm-up round" : $"{n} untimed warm-up rounds";
}
