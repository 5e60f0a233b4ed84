using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>One timed (or warm-up) run of a combination or a peer, in its place in the round-robin.</summary>
public sealed record BenchJob(int Index, int Round, bool Warmup, Combination? Combination, PeerDefinition? Peer, RuntimeProfile Profile, bool MainProfile = true, long Rows = 0)
{
    public string Key => (Combination?.Key ?? Peer!.Key) + (MainProfile ? "" : "@" + Profile.Name);
    public string Title => Combination is { } c
        ? $"#{c.Number} {c.Label}{(MainProfile ? "" : $" [{Profile.Name}]")}"
        : $"peer: {Peer!.Name}";
    public string RunLabel(int repeat) => Warmup ? "warm-up" : $"run {Round}/{repeat}";
}

public sealed record JobOutcome(bool Ok, string Text);

/// <summary>
/// Runs the matrix: the untimed warm-up rounds (--warmup), then `repeat` timed rounds, each round visiting every selected
/// combination and then every peer, so slow drift of the machine spreads over all cases instead of hitting one.
/// That is the main profile's part; each further profile then restarts the services and runs its own warm-up and
/// rounds over the profile cases (a service's runtime settings are fixed for its lifetime, so profiles cannot be
/// interleaved run by run).
/// </summary>
public sealed class BenchSession(BenchSettings settings, SystemUnderTest firstSystem, IBenchDisplay display, Func<BenchSession, Task> checkpoint) : IDisposable
{
    // Replaced for each link (UseSystem): each link has its own hosts, clusters and services.
    private SystemUnderTest _system = firstSystem;

    /// <summary>Another run in progress (someone else's, on a shared SomeService) is waited out this long.</summary>
    private static readonly TimeSpan BusyPatience = TimeSpan.FromMinutes(10);

    // A million rows through EFOffsetPaging × EFTypical takes minutes; HttpClient's 100 s default would cut it.
    private HttpClient _http = firstSystem.CreateSomeServiceClient(TimeSpan.FromHours(2));
    private SomeServiceClient Api => new(_http);
    // Rebuilt after each reseed: it verifies against the source summary of its size.
    private PeerRunner _peers = NewPeerRunner(firstSystem);

    /// <summary>The system of the link measured now.</summary>
    public SystemUnderTest CurrentSystem => _system;

    /// <summary>Measures the next link against its own system (the previous one is the caller's to stop).</summary>
    public void UseSystem(SystemUnderTest next)
    {
        _system = next;
        _http.Dispose();
        _http = next.CreateSomeServiceClient(TimeSpan.FromHours(2));
        _peers = NewPeerRunner(next);
    }

    private static PeerRunner NewPeerRunner(SystemUnderTest of) =>
        new(of.SourceDb, of.TargetDb, of.SourceChecksum, of.PeerPlacement, of.ReadLinkCountersAsync);

    public IReadOnlyList<Combination> Combinations { get; } = Compressed(TestCases.Runnable.Where(c => settings.Cases.Matches(c.Fetch, c.Insert)), settings);
    private readonly List<PeerDefinition> _peerList = [.. PeerDefinition.All.Where(p => settings.RunsPeer(p.Key))];

    /// <summary>The peers this session runs: all of them unless --no-peers or --peers chose some, less those <see cref="CheckPeersAsync"/> skipped.</summary>
    public IReadOnlyList<PeerDefinition> Peers => _peerList;

    /// <summary>Peers left out because the server cannot run them (their precondition), with why.</summary>
    public List<SkippedPeer> SkippedPeers { get; } = [];

    /// <summary>The combinations each further profile runs: the selected ones that --profile-cases names.</summary>
    public IReadOnlyList<Combination> ProfileCombinations { get; } =
        Compressed(TestCases.Runnable.Where(c => settings.Cases.Matches(c.Fetch, c.Insert) && settings.ProfileCases.Matches(c.Fetch, c.Insert)), settings);

    /// <summary>Each case once per --compression, in case order (a case's compressions side by side).</summary>
    private static Combination[] Compressed(IEnumerable<Combination> cases, BenchSettings settings) =>
        cases.SelectMany(c => settings.Compressions.Select(compression => c with { Compression = compression })).ToArray();

    public List<CombinationRun> Runs { get; } = [];
    public List<PeerRun> PeerRuns { get; } = [];
    public List<string> Problems { get; } = [];
    public List<SkippedCase> Skipped { get; } = [];
    /// <summary>Seeding time per size (null: an existing seed of that size was reused).</summary>
    public Dictionary<long, double?> SeedMs { get; } = [];

    /// <summary>The first size's schedule (a classic single-size run).</summary>
    public IReadOnlyList<BenchJob> Schedule() => Schedule(0, _ => false);

    /// <summary>
    /// One size's jobs: its warm-up rounds (BenchSettings.WarmupsAt), then the timed rounds, every selected case and
    /// peer in each round; <paramref name="skip"/> leaves out cases (by key) predicted past the cap.
    /// </summary>
    public IReadOnlyList<BenchJob> Schedule(int sizeIndex, Func<string, bool> skip)
    {
        var rows = settings.Sizes[sizeIndex];
        var jobs = new List<BenchJob>();
        foreach (var profile in settings.Profiles)
        {
            var main = profile == settings.MainProfile;
            var combinations = main ? Combinations : ProfileCombinations;
            for (var round = 1 - settings.WarmupsAt(sizeIndex); round <= settings.Repeat; round++)
            {
                var warmup = round <= 0;
                foreach (var c in combinations)
                {
                    var job = new BenchJob(jobs.Count, Math.Max(round, 0), warmup, c, null, profile, main, rows);
                    if (!skip(job.Key))
                    {
                        jobs.Add(job);
                    }
                }

                // The peers run no .NET process: one set, beside the main profile's runs, is enough.
                foreach (var p in main ? Peers : [])
                {
                    var job = new BenchJob(jobs.Count, Math.Max(round, 0), warmup, null, p, profile, main, rows);
                    if (!skip(job.Key))
                    {
                        jobs.Add(job);
                    }
                }
            }
        }

        return jobs;
    }

    /// <summary>
    /// Every size in turn across the current link, smallest first: reseed (the services stay up: they hold no data,
    /// and restarting them would only add cold starts), decide which cases the cap skips, then that size's round-robin.
    /// </summary>
    public async Task RunAsync(CancellationToken ct)
    {
        await CheckPeersAsync(ct);
        if (settings.Links.Count > 1)
        {
            display.Say($"Link {_system.Link.Name}.");
        }

        SeedMs.TryAdd(settings.Sizes[0], _system.SeedReused ? null : _system.SeedMs);
        for (var i = 0; i < settings.Sizes.Count; i++)
        {
            var rows = settings.Sizes[i];
            if (settings.Sizes.Count > 1)
            {
                display.Say($"Size {i + 1}/{settings.Sizes.Count}: {rows:N0} rows.");
            }

            if (i > 0)
            {
                await Heartbeat.RunAsync($"seeding {rows:N0} rows", () => _system.PrepareDataAsync(rows, display.Say, ct), display.Say);
                SeedMs.TryAdd(rows, _system.SeedReused ? null : _system.SeedMs);
                _peers = NewPeerRunner(_system);
            }

            var skipped = DecideSkips(rows);
            foreach (var s in skipped)
            {
                display.Say($"Skipped at {s.Rows:N0} rows: {s.Title} ({s.Reason}).");
            }

            Skipped.AddRange(skipped);
            var keys = Skipped.Where(s => s.Link == _system.Link.Name).Select(s => s.Case + (s.Profile == settings.MainProfile.Name ? "" : "@" + s.Profile)).ToHashSet();
            var jobs = Schedule(i, keys.Contains);
            // The time left at a new size: each case's run predicted from the smaller ones until it has run here.
            var predicted = jobs.GroupBy(j => j.Key).ToDictionary(g => g.Key, g => Growth.PredictMs(BestTimesBySize(g.First()), rows));
            await display.RunAsync(jobs, ExecuteAsync, ct, key => predicted.GetValueOrDefault(key) is { } ms ? TimeSpan.FromMilliseconds(ms) : null);
        }
    }

    /// <summary>
    /// Asks the source whether each peer with a precondition can run there (e.g. logical replication needs
    /// wal_level = logical, which --connection's server may not have); one that cannot is skipped with the reason.
    /// </summary>
    public async Task CheckPeersAsync(CancellationToken ct)
    {
        foreach (var peer in _peerList.Where(p => p.Precondition is not null).ToList())
        {
            await using var connection = new Npgsql.NpgsqlConnection(_system.SourceDb);
            await connection.OpenAsync(ct);
            await using var command = new Npgsql.NpgsqlCommand(peer.Precondition, connection);
            if (await command.ExecuteScalarAsync(ct) is string reason)
            {
                _peerList.Remove(peer);
                SkippedPeers.Add(new SkippedPeer(peer.Key, $"peer: {peer.Name}", reason));
                display.Say($"Skipped peer {peer.Name}: {reason}.");
            }
        }
    }

    /// <summary>Cases whose run at <paramref name="rows"/> is predicted past the cap, from their best times so far.</summary>
    private List<SkippedCase> DecideSkips(long rows)
    {
        if (settings.MaxRunSeconds is not { } cap)
        {
            return [];
        }

        var result = new List<SkippedCase>();
        var jobs = Schedule(0, _ => false).Where(j => !j.Warmup && j.Round == 1).ToList();
        foreach (var job in jobs)
        {
            var profile = job.Profile.Name;
            var key = job.Combination?.Key ?? job.Peer!.Key;
            // Once skipped, skipped at every larger size too: its prediction only grows (scaled on from the first skip).
            var already = Skipped.LastOrDefault(s => s.Case == key && s.Profile == profile && s.Link == _system.Link.Name);
            var predicted = already is not null
                ? Growth.PredictMs([(already.Rows, already.PredictedMs)], rows)
                : Growth.PredictMs(BestTimesBySize(job), rows);
            if (predicted is { } ms && (already is not null || ms > cap * 1000))
            {
                result.Add(new SkippedCase(key, job.Title, profile, rows, Math.Round(ms),
                    string.Create(System.Globalization.CultureInfo.InvariantCulture,
                        $"predicted {Estimator.Format(TimeSpan.FromMilliseconds(ms))} per run, past --max-run-seconds {cap:0}")) { Link = _system.Link.Name });
            }
        }

        return result;
    }

    private List<(long Rows, double Ms)> BestTimesBySize(BenchJob job)
    {
        IEnumerable<(long? Rows, double? Ms)> times = job.Combination is { } c
            ? Runs.Where(r => r.Case == c.Key && r.Profile == job.Profile.Name && r.Link == _system.Link.Name && r.Ok && !r.Warmup).Select(r => (r.SourceRows, r.Result!.DurationMs))
            : PeerRuns.Where(r => r.Peer == job.Peer!.Key && r.Link == _system.Link.Name && r.Ok && !r.Warmup).Select(r => (r.SourceRows, r.DurationMs));
        return times.Where(t => t.Rows is not null && t.Ms is not null)
            .GroupBy(t => t.Rows!.Value)
            .Select(g => (g.Key, g.Min(t => t.Ms!.Value)))
            .ToList();
    }

    private async Task<JobOutcome> ExecuteAsync(BenchJob job, CancellationToken ct)
    {
        if (_system.ServicesStartedByRunner && _system.Profile != job.Profile)
        {
            await _system.UseProfileAsync(job.Profile, display.Say, ct);
        }

        if (await _system.ReviveAsync(ct) is { } revived)
        {
            Problems.Add($"Before {job.Title} {job.RunLabel(settings.Repeat)}: {revived}");
            display.Say(revived);
        }

        JobOutcome outcome;
        if (job.Combination is { } combination)
        {
            var run = await RunCombinationAsync(combination, job, ct) with { SourceRows = _system.SourceChecksum.Rows, Link = _system.Link.Name };
            Runs.Add(run);
            outcome = run.Ok
                ? new JobOutcome(true, $"{run.Result!.DurationMs:N0} ms, {run.Result.Rows:N0} rows, verified")
                : new JobOutcome(false, run.Error ?? "failed");
        }
        else
        {
            var run = await _peers.RunAsync(job.Peer!, job.Round, job.Warmup, ct) with { SourceRows = _system.SourceChecksum.Rows, Link = _system.Link.Name };
            PeerRuns.Add(run);
            outcome = run.Ok
                ? new JobOutcome(true, $"{run.DurationMs:N0} ms, {run.Rows:N0} rows, verified")
                : new JobOutcome(false, run.Error ?? "failed");
        }

        await checkpoint(this);
        return outcome;
    }

    private async Task<CombinationRun> RunCombinationAsync(Combination combination, BenchJob job, CancellationToken ct)
    {
        CombinationRun Make(TimeSpan wall, int? status, string? error, RunResult? result) => new()
        {
            Number = combination.Number,
            Case = combination.Key,
            Fetch = combination.Fetch.ToString(),
            Insert = combination.Insert.ToString(),
            Compression = combination.Compression,
            Round = job.Round,
            Warmup = job.Warmup,
            // Services someone else started run whatever they run: recorded as reported, not as a profile name.
            Profile = _system.ServicesStartedByRunner ? job.Profile.Name : ExternalProfile,
            WallMs = Math.Round(wall.TotalMilliseconds, 1),
            HttpStatus = status,
            Error = error,
            Result = result,
        };

        // Untimed: the target must differ from the source, so a run that writes nothing cannot verify.
        await Lab.MakeTargetDifferAsync(_system.TargetDb, _system.SourceChecksum, ct);
        var clock = Stopwatch.StartNew();
        try
        {
            var before = await _system.ReadLinkCountersAsync(ct);
            var (status, body, wall) = await TriggerAsync(combination, ct);
            var traffic = PeerRunner.LinkTrafficOf(before, await _system.ReadLinkCountersAsync(ct), _system.SourceChecksum.Rows);
            if (status != HttpStatusCode.OK)
            {
                return Make(wall, (int)status, $"HTTP {(int)status}: {Shorten(body)}", null) with { Traffic = traffic };
            }

            var result = JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult) ?? throw new JsonException("empty body");
            // The runner's own verdict, whatever the service says: read the target directly.
            var target = await Lab.ReadChecksumAsync(_system.TargetDb, ct);
            return Make(wall, 200, Verdict(job, result, target), result) with { RunnerVerified = target == _system.SourceChecksum, RunnerTarget = target, Traffic = traffic };
        }
        catch (Exception ex) when (ex is HttpRequestException or JsonException || (ex is TaskCanceledException && !ct.IsCancellationRequested))
        {
            var context = _system.SomeServiceOutput is { } output ? $" SomeService's last output: {output}" : "";
            return Make(clock.Elapsed, null, $"Request failed: {ex.Message}{context}", null);
        }
    }

    /// <summary>SomeService's GET /sync?…&amp;wait=true, another run in progress (409) waited out; the wall time of the answered request.</summary>
    private async Task<(HttpStatusCode Status, string Body, TimeSpan Wall)> TriggerAsync(Combination combination, CancellationToken ct)
    {
        var busy = Stopwatch.StartNew();
        while (true)
        {
            var clock = Stopwatch.StartNew();
            // none is sent as no c= at all: the same request as before compression existed.
            var compression = combination.Compression == BodyCompression.None ? null : combination.Compression;
            using var response = await Api.TriggerAsync($"{combination.Fetch}", $"{combination.Insert}", settings.PageSize, settings.BatchSize, wait: true, ct: ct, compression: compression);
            var body = await response.Content.ReadAsStringAsync(ct);
            if (response.StatusCode == HttpStatusCode.Conflict && busy.Elapsed < BusyPatience)
            {
                await Task.Delay(TimeSpan.FromSeconds(2), ct);
                continue;
            }

            return (response.StatusCode, body, clock.Elapsed);
        }
    }

    /// <summary>Null when SomeService's verdict and the runner's both hold (and the services ran the job's profile); else why not.</summary>
    private string? Verdict(BenchJob job, RunResult result, TableChecksum target)
    {
        var profileError = _system.ServicesStartedByRunner ? ProfileMismatch(job.Profile, result) : null;
        // A SomeService that ignores c= (an older build, someone else's) would file plain runs under a coding.
        var compressionError = job.Combination is { } c && result.Compression != c.Compression
            ? $"The run asked for {c.Compression} but SomeService ran it as {result.Compression}."
            : null;
        return profileError ?? compressionError ?? result switch
        {
            { Status: RunStatus.Succeeded, Verified: true } when target == _system.SourceChecksum => null,
            { Status: RunStatus.Succeeded, Verified: true } =>
                $"SomeService reported success, but the runner finds the target different from the source: source {_system.SourceChecksum.Rows:N0} rows " +
                $"(checksum {_system.SourceChecksum.Checksum}), target {target.Rows:N0} (checksum {target.Checksum}).",
            { Status: RunStatus.Succeeded } => "The run succeeded but was not verified.",
            _ => $"{result.Status}: {result.Error}",
        };
    }

    /// <summary>The profile label of runs against services the runner did not start.</summary>
    public const string ExternalProfile = "external";

    /// <summary>A run whose services report settings other than its profile's does not count for that profile.</summary>
    private static string? ProfileMismatch(RuntimeProfile profile, RunResult result)
    {
        var wrong = new[] { ("SomeService", result.SomeService?.Runtime), ("SyncDataSource", result.SyncDataSource?.Runtime) }
            .Where(x => x.Item2 is not null && profile.Check(x.Item2) is not null)
            .Select(x => $"{x.Item1} ran {RuntimeProfiles.Describe(x.Item2!)} ({profile.Check(x.Item2!)})")
            .ToList();
        return wrong.Count == 0 ? null : $"Not profile {profile.Name}: {string.Join("; ", wrong)}";
    }

    private static string Shorten(string text) => text.Length <= 600 ? text : text[..600] + "…";

    public void Dispose() => _http.Dispose();
}
