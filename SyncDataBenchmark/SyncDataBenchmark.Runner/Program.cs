using System.CommandLine;
using System.CommandLine.Parsing;
using SyncDataBenchmark.Runner;

// Every value goes through OptionParsing: a bad one is one line naming the option, the value and what is accepted.
var rows = new Option<long[]>("--rows")
{
    // sql/generate.sql's seed_users takes an integer.
    Description = $"Rows seeded into the source users table: {OptionParsing.WholeNumber(1, int.MaxValue)}; several, comma-separated (e.g. 100000,1000000,10000000), " +
                  "measure every case at each size, smallest first, the source reseeded once per size, and add the growth picture and exponents.",
    DefaultValueFactory = _ => [1_000_000],
    CustomParser = r => OptionParsing.Sizes(r, "--rows", 1, int.MaxValue) ?? [],
};

var maxRunSeconds = new Option<int?>("--max-run-seconds")
{
    Description = $"In a sweep, skip a case at a size where its run is predicted (from the smaller sizes, time ∝ rows^k, k fitted, at least 1) to take longer than this; " +
                  $"it is listed as skipped; {OptionParsing.WholeNumber(1, 1_000_000)}. Default: {BenchSettings.DefaultMaxRunSeconds:0}.",
    CustomParser = r => (int?)OptionParsing.Number(r, "--max-run-seconds", 1, 1_000_000),
};
var noMaxRun = new Option<bool>("--no-max-run") { Description = "Run every case at every size, whatever its predicted time." };

var repeat = new Option<int>("--repeat")
{
    Description = $"Timed runs per combination (after one untimed warm-up): {OptionParsing.WholeNumber(1, 1000)}.",
    DefaultValueFactory = _ => 3,
    CustomParser = r => (int)(OptionParsing.Number(r, "--repeat", 1, 1000) ?? 0),
};

var cases = new Option<string[]>("--cases")
{
    Description = "Combinations to run, as Fetch:Insert with * for any (e.g. NpgsqlCopy:* or EFStream:NpgsqlCopy); comma-separated or repeated. Default: all.",
    AllowMultipleArgumentsPerToken = true,
};
cases.Validators.Add(r =>
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
});

// SomeService's own limits (Sync:MaxPageSize, Sync:MaxBatchSize defaults): beyond them it answers 400.
var pageSize = new Option<int?>("--page-size")
{
    Description = $"Page size for the paging fetch approaches (default: SomeService's): {OptionParsing.WholeNumber(1, 10_000)}.",
    CustomParser = r => (int?)OptionParsing.Number(r, "--page-size", 1, 10_000),
};
var batchSize = new Option<int?>("--batch-size")
{
    Description = $"Batch size for the batching insert approaches (default: SomeService's): {OptionParsing.WholeNumber(1, 100_000)}.",
    CustomParser = r => (int?)OptionParsing.Number(r, "--batch-size", 1, 100_000),
};

var output = new Option<DirectoryInfo>("--out")
{
    Description = "Where results.json, results.csv, results.md and the pictures go (created if missing; checked writable before anything starts).",
    DefaultValueFactory = _ => new DirectoryInfo("artifacts"),
    CustomParser = r => OptionParsing.WritableDirectory(r, "--out")!,
};
var connection = new Option<string?>("--connection")
{
    Description = "Base Npgsql connection string of an existing PostgreSQL server (databases source/target are created if missing; a seed of the right size is reused). Default: a throwaway local cluster.",
};
connection.Validators.Add(r =>
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
});
var sourceUrl = new Option<string?>("--source-url") { Description = "Use this running SyncDataSource instead of starting one (needs --connection: the databases it reads)." };
var someServiceUrl = new Option<string?>("--someservice-url") { Description = "Use this running SomeService instead of starting the services (needs --connection)." };
var tmpfs = new Option<bool>("--tmpfs") { Description = "Put the local cluster on /dev/shm with fsync, synchronous_commit and full_page_writes off (recorded in the results)." };
var noPeers = new Option<bool>("--no-peers") { Description = "Skip the peers (psql pipes, pgcopydb, postgres_fdw, logical replication, the tuned psql pipe)." };
var noCharts = new Option<bool>("--no-charts") { Description = "Skip the pictures (no matplotlib needed)." };
foreach (var flag in new[] { tmpfs, noPeers, noCharts, noMaxRun })
{
    flag.CustomParser = r => OptionParsing.Flag(r, flag.Name);
}

static bool IsHttpUrl(string? text) => Uri.TryCreate(text, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https";
foreach (var option in new[] { sourceUrl, someServiceUrl })
{
    option.CustomParser = r =>
    {
        var text = string.Join(' ', r.Tokens.Select(t => t.Value));
        if (!IsHttpUrl(text))
        {
            r.AddError(OptionParsing.Invalid(option.Name, text, "an absolute http(s) URL, e.g. http://127.0.0.1:5180"));
        }

        return text;
    };
}

var profile = new Option<string[]>("--profile")
{
    Description = $"Runtime profiles to measure under ({SyncData.Harness.RuntimeProfiles.Names}), comma-separated or repeated; the first is the headline table's and runs every case and the peers, the others run the --profile-cases cases, each after restarting the services. Default: default.",
    AllowMultipleArgumentsPerToken = true,
    DefaultValueFactory = _ => [SyncData.Harness.RuntimeProfiles.DefaultName],
};
profile.Validators.Add(r =>
{
    var names = SplitList(r.GetValueOrDefault<string[]>() ?? []);
    foreach (var name in names.Where(n => SyncData.Harness.RuntimeProfiles.Find(n) is null))
    {
        r.AddError($"--profile: '{name}' is not a runtime profile. Valid values: {SyncData.Harness.RuntimeProfiles.Names}.");
    }

    if (names.Distinct(StringComparer.OrdinalIgnoreCase).Count() != names.Count)
    {
        r.AddError($"--profile: '{string.Join(',', names)}' names a profile twice.");
    }
});

var profileCases = new Option<string[]>("--profile-cases")
{
    Description = $"Cases measured under the profiles after the first, as Fetch:Insert with * for any; comma-separated or repeated. Default: {BenchSettings.DefaultProfileCasesText} (a name this build lacks is skipped).",
    AllowMultipleArgumentsPerToken = true,
};
profileCases.Validators.Add(r =>
{
    CaseSelection.Parse(r.GetValueOrDefault<string[]>() ?? [], out var error);
    if (error is not null)
    {
        r.AddError("--profile-cases: " + error.Replace("--cases", "--profile-cases", StringComparison.Ordinal));
    }
});

var root = new RootCommand(
    "Runs every runnable fetch × insert combination of SyncDataBenchmark (and the peers: psql pipes, pgcopydb, postgres_fdw, logical replication) against the same seeded table, " +
    "verifies every run, and writes results.json, results.csv, results.md and pictures. Exits 1 if any run failed or was not verified.")
{
    rows, maxRunSeconds, noMaxRun, repeat, cases, pageSize, batchSize, output, connection, sourceUrl, someServiceUrl, tmpfs, noPeers, noCharts, profile, profileCases,
};
root.Validators.Add(r =>
{
    // Combinations of options are judged only once each value parsed; a value that did not has its own error line.
    if (r.Children.Any(c => c.Tokens.Count > 0 && c is OptionResult o && o.Errors.Any()))
    {
        return;
    }

    bool hasConnection;
    List<string> urls;
    try
    {
        hasConnection = r.GetValue(connection) is not null;
        urls = new[] { r.GetValue(sourceUrl), r.GetValue(someServiceUrl) }.OfType<string>().ToList();
    }
    catch (InvalidOperationException)
    {
        return; // a value that did not parse: its own error line says so
    }

    if (!hasConnection && urls.Count > 0 && urls.All(IsHttpUrl))
    {
        r.AddError("--source-url and --someservice-url need --connection: the runner seeds and verifies the databases those services use.");
    }

    var selection = CaseSelection.Parse(r.GetValue(cases) ?? [], out var casesError);
    if (casesError is null && r.GetValue(noPeers) && !Catalog.Runnable.Any(c => selection.Matches(c.Fetch, c.Insert)))
    {
        r.AddError($"--cases {string.Join(',', selection.Patterns)} selects no runnable combination and --no-peers skips the peers: nothing would run.");
    }

    var profiles = SplitList(r.GetValue(profile) ?? []);
    if (r.GetValue(someServiceUrl) is not null && profiles.Any(p => !string.Equals(p, SyncData.Harness.RuntimeProfiles.DefaultName, StringComparison.OrdinalIgnoreCase)))
    {
        r.AddError("--profile applies to services the runner starts; with --someservice-url the services run whatever they were started with (recorded as reported).");
    }

    if (r.GetValue(noMaxRun) && r.GetValue(maxRunSeconds) is not null)
    {
        r.AddError("--max-run-seconds and --no-max-run contradict each other: give one.");
    }

    if (hasConnection && r.GetValue(tmpfs))
    {
        r.AddError("--tmpfs applies to the runner's own throwaway cluster, not to an existing server given by --connection.");
    }
});

root.SetAction((parse, ct) =>
{
    static Uri? AsUri(string? value) => value is null ? null : new Uri(value.EndsWith('/') ? value : value + "/");
    var settings = new BenchSettings
    {
        Sizes = parse.GetValue(rows)!,
        MaxRunSeconds = parse.GetValue(noMaxRun) ? null : parse.GetValue(maxRunSeconds) ?? BenchSettings.DefaultMaxRunSeconds,
        Repeat = parse.GetValue(repeat),
        Cases = CaseSelection.Parse(parse.GetValue(cases) ?? [], out _),
        PageSize = parse.GetValue(pageSize),
        BatchSize = parse.GetValue(batchSize),
        Out = parse.GetValue(output)!,
        Connection = parse.GetValue(connection),
        SourceUrl = AsUri(parse.GetValue(sourceUrl)),
        SomeServiceUrl = AsUri(parse.GetValue(someServiceUrl)),
        Tmpfs = parse.GetValue(tmpfs),
        Peers = !parse.GetValue(noPeers),
        Charts = !parse.GetValue(noCharts),
        Profiles = SplitList(parse.GetValue(profile) ?? []).Select(n => SyncData.Harness.RuntimeProfiles.Find(n)!).DefaultIfEmpty(SyncData.Harness.RuntimeProfiles.Default).ToList(),
        ProfileCases = parse.GetValue(profileCases) is { Length: > 0 } given ? CaseSelection.Parse(given, out _) : CaseSelection.DefaultProfileCases,
    };
    return BenchCommand.RunAsync(settings, ct);
});

static List<string> SplitList(IEnumerable<string> values) =>
    values.SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();

var parsed = root.Parse(args);
if (parsed.Errors.Count > 0)
{
    // One line per problem, no help page and no stack trace; 1 is the documented exit code for invalid options.
    foreach (var error in parsed.Errors)
    {
        Console.Error.WriteLine(error.Message);
    }

    return BenchCommand.RunsFailed;
}

// Ctrl+C cancels the action; give it time to write partial results and stop the services and the cluster.
return await parsed.InvokeAsync(new InvocationConfiguration { ProcessTerminationTimeout = TimeSpan.FromSeconds(30) });
