using System.CommandLine;
using System.CommandLine.Parsing;
using SyncData.Harness;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The command line: every option, its own value checks (through <see cref="OptionParsing"/>: a bad value is one line
/// naming the option, the value and what is accepted), the checks across options, and the <see cref="BenchSettings"/>
/// they make.
/// </summary>
public sealed class BenchOptions
{
    private readonly Option<long[]> _rows = new("--rows")
    {
        // sql/generate.sql's seed_users takes an integer.
        Description = $"Rows seeded into the source users table: {OptionParsing.WholeNumber(1, int.MaxValue)}; several, comma-separated (e.g. 100000,1000000,10000000), " +
                      "measure every case at each size, smallest first, the source reseeded once per size, and add the growth picture and exponents.",
        DefaultValueFactory = _ => [1_000_000],
        CustomParser = r => OptionParsing.Sizes(r, "--rows", 1, int.MaxValue) ?? [],
    };

    private readonly Option<int?> _maxRunSeconds = new("--max-run-seconds")
    {
        Description = $"In a sweep, skip a case at a size where its run is predicted (from the smaller sizes, time ∝ rows^k, k fitted, at least 1) to take longer than this; " +
                      $"it is listed as skipped; {OptionParsing.WholeNumber(1, 1_000_000)}. Default: {BenchSettings.DefaultMaxRunSeconds:0}.",
        CustomParser = r => (int?)OptionParsing.Number(r, "--max-run-seconds", 1, 1_000_000),
    };

    private readonly Option<int> _repeat = new("--repeat")
    {
        Description = $"Timed runs per combination (after the untimed warm-ups): {OptionParsing.WholeNumber(1, 1000)}.",
        DefaultValueFactory = _ => 3,
        CustomParser = r => (int)(OptionParsing.Number(r, "--repeat", 1, 1000) ?? 0),
    };

    private readonly Option<int> _warmup = new("--warmup")
    {
        Description = "Untimed warm-up rounds before the timed ones (every selected case and peer, at the first size; at every size with more than one profile): " +
                      $"{OptionParsing.WholeNumber(1, 1000)}. The services' JIT keeps recompiling hot methods for tens of runs after a start (the runs' jitMethods); " +
                      "more rounds keep that out of small sizes' timed runs. Default: 1.",
        DefaultValueFactory = _ => 1,
        CustomParser = r => (int)(OptionParsing.Number(r, "--warmup", 1, 1000) ?? 0),
    };

    private readonly Option<string[]> _cases = new("--cases")
    {
        Description = "Combinations to run, as Fetch:Insert with * for any (e.g. NpgsqlCopy:* or EFStream:NpgsqlCopy); comma-separated or repeated. Default: all.",
        AllowMultipleArgumentsPerToken = true,
    };

    // SomeService's own limits (Sync:MaxPageSize, Sync:MaxBatchSize defaults): beyond them it answers 400.
    private readonly Option<int?> _pageSize = new("--page-size")
    {
        Description = $"Page size for the paging fetch approaches (default: SomeService's): {OptionParsing.WholeNumber(1, 10_000)}.",
        CustomParser = r => (int?)OptionParsing.Number(r, "--page-size", 1, 10_000),
    };

    private readonly Option<int?> _batchSize = new("--batch-size")
    {
        Description = $"Batch size for the batching insert approaches (default: SomeService's): {OptionParsing.WholeNumber(1, 100_000)}.",
        CustomParser = r => (int?)OptionParsing.Number(r, "--batch-size", 1, 100_000),
    };

    private readonly Option<DirectoryInfo> _out = new("--out")
    {
        Description = "Where results.json, results.csv, results.md and the pictures go (created if missing; checked writable before anything starts).",
        DefaultValueFactory = _ => new DirectoryInfo("artifacts"),
        CustomParser = r => OptionParsing.WritableDirectory(r, "--out")!,
    };

    private readonly Option<DirectoryInfo?> _reportFrom = new("--report-from")
    {
        Description = "Run nothing: write results.md, results.csv and the pictures again from DIR/results.json (e.g. after the report gained a section). Takes no other option but --no-charts.",
        CustomParser = r => OptionParsing.RecordDirectory(r, "--report-from"),
    };

    private readonly Option<string?> _connection = new("--connection")
    {
        Description = "Base Npgsql connection string of an existing PostgreSQL server (databases source/target are created if missing; a seed of the right size is reused). Default: a throwaway local cluster.",
    };

    private readonly Option<string?> _sourceUrl = Url("--source-url", "Use this running SyncDataSource instead of starting one (needs --connection: the databases it reads).");
    private readonly Option<string?> _someServiceUrl = Url("--someservice-url", "Use this running SomeService instead of starting the services (needs --connection).");
    private readonly Option<bool> _noMaxRun = Flag("--no-max-run", "Run every case at every size, whatever its predicted time.");
    private readonly Option<bool> _tmpfs = Flag("--tmpfs", "Put the local cluster on /dev/shm with fsync, synchronous_commit and full_page_writes off (recorded in the results).");
    private readonly Option<bool> _noPeers = Flag("--no-peers", "Skip the peers (psql pipes, pgcopydb, postgres_fdw, logical replication, the tuned psql pipe).");
    private readonly Option<bool> _noCharts = Flag("--no-charts", "Skip the pictures (no matplotlib needed).");

    private readonly Option<string[]> _peers = new("--peers")
    {
        Description = $"Peers to run ({PeerDefinition.Keys}), comma-separated or repeated, e.g. psql-binary,psql-binary-tuned for the two the COPY cases are measured against. Default: all.",
        AllowMultipleArgumentsPerToken = true,
    };

    private readonly Option<string[]> _profile = new("--profile")
    {
        Description = $"Runtime profiles to measure under ({RuntimeProfiles.Names}), comma-separated or repeated; the first is the headline table's and runs every case and the peers, the others run the --profile-cases cases, each after restarting the services. Default: default.",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => [RuntimeProfiles.DefaultName],
    };

    private readonly Option<string[]> _profileCases = new("--profile-cases")
    {
        Description = $"Cases measured under the profiles after the first, as Fetch:Insert with * for any; comma-separated or repeated. Default: {BenchSettings.DefaultProfileCasesText} (a name this build lacks is skipped).",
        AllowMultipleArgumentsPerToken = true,
    };

    private readonly Option<string[]> _link = new("--link")
    {
        Description = $"Links between the source's host and the target's, comma-separated, measured in turn ({NetworkLink.Names}); loopback is one host (today's setup), " +
                      "the others two network namespaces, each with its own PostgreSQL, joined by one veth pair shaped with tc tbf at that rate (docs/running.md). Default: loopback.",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => [NetworkLink.LoopbackName],
    };

    private readonly Option<string[]> _compression = new("--compression")
    {
        Description = $"Content codings the selected cases run under ({SyncData.Shared.BodyCompression.NameList}), comma-separated or repeated; each case × coding is its own row "
                      + "(the trigger's c=; SyncDataSource compresses at CompressionLevel.Fastest). Peers run once. Default: none (no compression, as before).",
        AllowMultipleArgumentsPerToken = true,
        DefaultValueFactory = _ => [SyncData.Shared.BodyCompression.None],
    };

    /// <summary>The root command with every option and check; its action runs <paramref name="run"/> with the settings.</summary>
    public RootCommand Command(Func<BenchSettings, CancellationToken, Task<int>> run)
    {
        var root = new RootCommand(
            "Runs every runnable fetch × insert combination of SyncDataBenchmark (and the peers: psql pipes, pgcopydb, postgres_fdw, logical replication) against the same seeded table, " +
            "verifies every run, and writes results.json, results.csv, results.md and pictures. Exits 1 if any run failed or was not verified.")
        {
            _rows, _maxRunSeconds, _noMaxRun, _repeat, _warmup, _cases, _pageSize, _batchSize, _out, _connection, _sourceUrl, _someServiceUrl, _tmpfs, _noPeers, _peers, _noCharts, _profile, _profileCases, _link, _compression, _reportFrom,
        };
        _compression.Validators.Add(ValidateCompression);
        _peers.Validators.Add(ValidatePeers);
        _cases.Validators.Add(ValidateCases);
        _connection.Validators.Add(ValidateConnection);
        _profile.Validators.Add(ValidateProfiles);
        _link.Validators.Add(ValidateLinks);
        _profileCases.Validators.Add(ValidateProfileCases);
        root.Validators.Add(ValidateTogether);
        root.SetAction((parse, ct) => run(Settings(parse), ct));
        return root;
    }

    public BenchSettings Settings(ParseResult parse) => new()
    {
        Sizes = parse.GetValue(_rows)!,
        MaxRunSeconds = parse.GetValue(_noMaxRun) ? null : parse.GetValue(_maxRunSeconds) ?? BenchSettings.DefaultMaxRunSeconds,
        Repeat = parse.GetValue(_repeat),
        Warmups = parse.GetValue(_warmup),
        Cases = CaseSelection.Parse(parse.GetValue(_cases) ?? [], out _),
        PageSize = parse.GetValue(_pageSize),
        BatchSize = parse.GetValue(_batchSize),
        Out = parse.GetValue(_out)!,
        Connection = parse.GetValue(_connection),
        SourceUrl = AsUri(parse.GetValue(_sourceUrl)),
        SomeServiceUrl = AsUri(parse.GetValue(_someServiceUrl)),
        Tmpfs = parse.GetValue(_tmpfs),
        Peers = !parse.GetValue(_noPeers),
        PeerKeys = parse.GetValue(_peers) is { Length: > 0 } peers ? SplitList(peers).Select(k => PeerDefinition.Find(k)!.Key).ToList() : null,
        Charts = !parse.GetValue(_noCharts),
        Profiles = SplitList(parse.GetValue(_profile) ?? []).Select(n => RuntimeProfiles.Find(n)!).DefaultIfEmpty(RuntimeProfiles.Default).ToList(),
        Links = SplitList(parse.GetValue(_link) ?? []).Select(n => NetworkLink.Find(n)!).DefaultIfEmpty(NetworkLink.Loopback).ToList(),
        ProfileCases = parse.GetValue(_profileCases) is { Length: > 0 } given ? CaseSelection.Parse(given, out _) : CaseSelection.DefaultProfileCases,
        Compressions = Compressions(parse.GetValue(_compression) ?? []),
        ReportFrom = parse.GetValue(_reportFrom),
    };

    /// <summary>The --compression names as BodyCompression writes them, in the order given; none when none given.</summary>
    public static IReadOnlyList<string> Compressions(IEnumerable<string> values) =>
        SplitList(values).Select(v => SyncData.Shared.BodyCompression.TryParse(v, out var name) ? name : v).DefaultIfEmpty(SyncData.Shared.BodyCompression.None).ToList();

    private static Option<bool> Flag(string name, string description)
    {
        var flag = new Option<bool>(name) { Description = description };
        flag.CustomParser = r => OptionParsing.Flag(r, name);
        return flag;
    }

    private static Option<string?> Url(string name, string description) => new(name)
    {
        Description = description,
        CustomParser = r =>
        {
            var text = string.Join(' ', r.Tokens.Select(t => t.Value));
            if (!IsHttpUrl(text))
            {
                r.AddError(OptionParsing.Invalid(name, text, "an absolute http(s) URL, e.g. http://127.0.0.1:5180"));
            }

            return text;
        },
    };

    private static void ValidateCases(OptionResult r)
    {
        var values = r.Tokens.Select(t => t.Value).ToArray();
        if (values.Any(string.IsNullOrWhiteSpace))
        {
            r.AddError(OptionParsing.Invalid("--cases", "", "Fetch:Insert patterns, either side may be * (e.g. NpgsqlCopy:*)"));
            return;
        }

        CaseSelection.Parse(values, out var error);
        if (error is not null)
        {
            r.AddError($"--cases: {error}");
        }
    }

    private static void ValidateConnection(OptionResult r)
    {
        var text = string.Join(' ', r.Tokens.Select(t => t.Value));
        const string accepted = "an Npgsql connection string, e.g. 'Host=127.0.0.1;Port=5432;Username=postgres;Password=postgres'";
        try
        {
            if (string.IsNullOrWhiteSpace(text) || string.IsNullOrEmpty(new Npgsql.NpgsqlConnectionStringBuilder(text).Host))
            {
                r.AddError(OptionParsing.Invalid("--connection", text, accepted));
            }
        }
        catch (ArgumentException)
        {
            r.AddError(OptionParsing.Invalid("--connection", text, accepted));
        }
    }

    private static void ValidateProfiles(OptionResult r)
    {
        var names = SplitList(r.GetValueOrDefault<string[]>() ?? []);
        foreach (var name in names.Where(n => RuntimeProfiles.Find(n) is null))
        {
            r.AddError($"--profile: '{name}' is not a runtime profile. Valid values: {RuntimeProfiles.Names}.");
        }

        if (names.Distinct(StringComparer.OrdinalIgnoreCase).Count() != names.Count)
        {
            r.AddError($"--profile: '{string.Join(',', names)}' names a profile twice.");
        }
    }

    private static void ValidateLinks(OptionResult r) => ValidateNames(r, "--link", "link", NetworkLink.Names, n => NetworkLink.Find(n) is not null);

    /// <summary>A comma-separated list of known names: at least one, each known, none twice.</summary>
    private static void ValidateNames(OptionResult r, string option, string noun, string known, Func<string, bool> isKnown)
    {
        var names = SplitList(r.GetValueOrDefault<string[]>() ?? []);
        var accepted = $"one or more of {known}, comma-separated";
        if (names.Count == 0)
        {
            r.AddError(OptionParsing.Invalid(option, string.Join(' ', r.Tokens.Select(t => t.Value)), accepted));
        }

        foreach (var name in names.Where(n => !isKnown(n)))
        {
            r.AddError(OptionParsing.Invalid(option, name, accepted));
        }

        if (names.Distinct(StringComparer.OrdinalIgnoreCase).Count() != names.Count)
        {
            r.AddError($"{option}: '{string.Join(',', names)}' names a {noun} twice.");
        }
    }

    private static void ValidateCompression(OptionResult r)
    {
        var names = SplitList(r.GetValueOrDefault<string[]>() ?? []);
        if (r.Tokens.Count > 0 && names.Count == 0)
        {
            r.AddError(OptionParsing.Invalid("--compression", "", SyncData.Shared.BodyCompression.NameList));
        }

        foreach (var name in names.Where(n => !SyncData.Shared.BodyCompression.TryParse(n, out _)))
        {
            r.AddError(OptionParsing.Invalid("--compression", name, SyncData.Shared.BodyCompression.NameList));
        }

        if (Compressions(names).Distinct().Count() != names.Count)
        {
            r.AddError($"--compression: '{string.Join(',', names)}' names a compression twice.");
        }
    }

    private static void ValidatePeers(OptionResult r) => ValidateNames(r, "--peers", "peer", PeerDefinition.Keys, k => PeerDefinition.Find(k) is not null);

    private static void ValidateProfileCases(OptionResult r)
    {
        CaseSelection.Parse(r.GetValueOrDefault<string[]>() ?? [], out var error);
        if (error is not null)
        {
            r.AddError("--profile-cases: " + error.Replace("--cases", "--profile-cases", StringComparison.Ordinal));
        }
    }

    /// <summary>Combinations of options, judged only once each value parsed; a value that did not has its own error line.</summary>
    private void ValidateTogether(CommandResult r)
    {
        if (r.Children.Any(c => c.Tokens.Count > 0 && c is OptionResult o && o.Errors.Any()))
        {
            return;
        }

        try
        {
            foreach (var error in Contradictions(r))
            {
                r.AddError(error);
            }
        }
        catch (InvalidOperationException)
        {
            // a value that did not parse: its own error line says so
        }
    }

    private IEnumerable<string> Contradictions(CommandResult r)
    {
        // GetValue first: a directory that did not parse throws here, and its own error line is the only one.
        if (r.GetResult(_reportFrom) is { Implicit: false } && r.GetValue(_reportFrom) is not null)
        {
            var others = r.Children.OfType<OptionResult>().Where(o => !o.Implicit && o.Option != _reportFrom && o.Option != _noCharts).Select(o => o.Option.Name).ToList();
            if (others.Count > 0)
            {
                yield return $"--report-from only writes the reports again from a record and runs nothing: {string.Join(", ", others)} would be ignored. Give it alone (or with --no-charts).";
            }

            yield break;
        }

        var hasConnection = r.GetValue(_connection) is not null;
        var urls = new[] { r.GetValue(_sourceUrl), r.GetValue(_someServiceUrl) }.OfType<string>().ToList();
        if (!hasConnection && urls.Count > 0 && urls.All(IsHttpUrl))
        {
            yield return "--source-url and --someservice-url need --connection: the runner seeds and verifies the databases those services use.";
        }

        var selection = CaseSelection.Parse(r.GetValue(_cases) ?? [], out var casesError);
        if (casesError is null && r.GetValue(_noPeers) && !TestCases.Runnable.Any(c => selection.Matches(c.Fetch, c.Insert)))
        {
            yield return $"--cases {string.Join(',', selection.Patterns)} selects no runnable combination and --no-peers skips the peers: nothing would run.";
        }

        if (r.GetValue(_noPeers) && r.GetValue(_peers) is { Length: > 0 })
        {
            yield return "--peers and --no-peers contradict each other: give one.";
        }

        if (r.GetValue(_someServiceUrl) is not null && SplitList(r.GetValue(_profile) ?? []).Any(p => !string.Equals(p, RuntimeProfiles.DefaultName, StringComparison.OrdinalIgnoreCase)))
        {
            yield return "--profile applies to services the runner starts; with --someservice-url the services run whatever they were started with (recorded as reported).";
        }

        if (r.GetValue(_noMaxRun) && r.GetValue(_maxRunSeconds) is not null)
        {
            yield return "--max-run-seconds and --no-max-run contradict each other: give one.";
        }

        if (SplitList(r.GetValue(_link) ?? []).Any(n => NetworkLink.Find(n) is { Shaped: true })
            && (hasConnection || urls.Count > 0))
        {
            yield return "--link with a shaped link builds its own two hosts (each with its own cluster and service): it cannot use --connection, --source-url or --someservice-url.";
        }

        if (hasConnection && r.GetValue(_tmpfs))
        {
            yield return "--tmpfs applies to the runner's own throwaway cluster, not to an existing server given by --connection.";
        }
    }

    private static bool IsHttpUrl(string? text) => Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https";

    private static Uri? AsUri(string? value) => value is null ? null : new Uri(value.EndsWith('/') ? value : value + "/");

    private static List<string> SplitList(IEnumerable<string> values) =>
        values.SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();
}
