using System.CommandLine;
using System.CommandLine.Parsing;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Follow;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The command line: every option, its own value checks (through <see cref="OptionParsing"/>: a bad value is one line
/// naming the option, the value and what is accepted), the checks across options, the defaults that depend on other
/// options, and the <see cref="BenchSettings"/> they make.
/// </summary>
public sealed class BenchOptions
{
    private readonly Option<long[]> _rows = new("--rows")
    {
        // sql/generate.sql's seed_users and seed_orders take an integer.
        Description = $"Rows seeded into each source table (--table): {OptionParsing.WholeNumber(1, int.MaxValue)}; several, comma-separated (e.g. 100000,1000000,10000000), " +
                      "measure every case at each size, smallest first, the source reseeded once per size, and add the growth picture and exponents.",
        DefaultValueFactory = _ => [1_000_000],
        CustomParser = r => OptionParsing.Sizes(r, "--rows", 1, int.MaxValue) ?? [],
    };

    private readonly Option<int?> _maxRunSeconds = Number("--max-run-seconds", 1_000_000,
        "In a sweep, skip a case at a size where its run is predicted (from the smaller sizes, time ∝ rows^k, k fitted, at least 1) to take longer than this; " +
        "it is listed as skipped", $"{BenchSettings.DefaultMaxRunSeconds:0}");

    private readonly Option<int?> _repeat = Number("--repeat", 1000,
        "The timed runs per case and peer; without it, at least this many and more (rounds in random order) until the case's --ci-width, --case-budget, --max-repeat or the --budget " +
        "is reached; given, exactly this many unless --max-repeat is also given. Fewer than 5 a side: too few runs to compare", $"{BenchSettings.DefaultRepeat}");

    private readonly Option<int?> _maxRepeat = Number("--max-repeat", 1000, "The most timed runs per case and peer", $"{BenchSettings.DefaultMaxRepeat}, or --repeat when it is given");

    private readonly Option<double?> _budget = new("--budget")
    {
        Description = "The whole session's wall time, from its start: before the first run the plan fits every case's warm-ups and --repeat runs in it (the costliest measured once, " +
                      "\"not compared\", when they do not fit), prints what it will cost, and no round starts that would end past it, e.g. 75m, 2h or 600s (1 min to 48 h). " +
                      $"Default: {BenchSettings.DefaultBudgetSeconds / 60:0}m.",
        CustomParser = r => OptionParsing.Duration(r, "--budget", 60, 48 * 3600),
    };

    private readonly Option<double?> _ciWidth = new("--ci-width")
    {
        Description = "A case stops once the 95% interval of its median/median ratio to the psql binary pipe (of its own median, without the pipe) is narrower than this share " +
                      $"of the ratio: e.g. 5% or 0.05, above 0 and at most 100%. Default: {BenchSettings.DefaultTargetWidth:P0}.",
        CustomParser = r => OptionParsing.Share(r, "--ci-width"),
    };

    private readonly Option<int?> _caseBudget = Number("--case-budget", 1_000_000,
        "Seconds of timed runs a case may spend short of --ci-width before it stops (its --repeat runs whatever they take; docs/running.md: the full run's budget)",
        $"{BenchSettings.DefaultCaseBudgetSeconds:0}");

    private readonly Option<int?> _warmup = Number("--warmup", 1000,
        "The least untimed warm-up runs per case and peer after each start of the services (at the first size; at every size with more than one profile)", $"{BenchSettings.DefaultWarmups}");

    private readonly Option<int?> _maxWarmup = Number("--max-warmup", 1000,
        "The most warm-up runs per case and service start: a case warms up until one compiled less than --jit-threshold-ms in SomeService", $"{BenchSettings.DefaultMaxWarmups}, or --warmup if more");

    private readonly Option<int?> _jitThreshold = Number("--jit-threshold-ms", 100_000,
        "A warm-up that compiled less than this many milliseconds in SomeService (its JIT time over the run) ends the warm-ups; a timed run that compiled more is flagged unsettled",
        $"{BenchSettings.DefaultJitThresholdMs:0}");

    private readonly Option<int?> _seed = new("--seed")
    {
        Description = $"The seed of every round's random order of cases, peers and profiles; the same seed gives the same order ({OptionParsing.WholeNumber(0, int.MaxValue)}). " +
                      "Default: a random seed, printed and recorded in results.json.",
        CustomParser = r => (int?)OptionParsing.Number(r, "--seed", 0, int.MaxValue),
    };

    private readonly Option<string[]> _cases = new("--cases")
    {
        Description = "Combinations to run, as Fetch:Insert with * for any (e.g. NpgsqlCopy:* or EFStream:NpgsqlCopy); comma-separated or repeated. Default: all.",
    };

    // SomeService's own limits (Sync:MaxPageSize, Sync:MaxBatchSize defaults): beyond them it answers 400.
    private readonly Option<int?> _pageSize = Number("--page-size", 10_000, "Page size for the paging fetch approaches", "SomeService's");
    private readonly Option<int?> _batchSize = Number("--batch-size", 100_000, "Batch size for the batching insert approaches", "SomeService's");

    private readonly Option<DirectoryInfo> _out = new("--out")
    {
        Description = "Where results.json, results.csv, results.md and the pictures go (created if missing; checked writable before anything starts).",
        DefaultValueFactory = _ => new DirectoryInfo("artifacts"),
        CustomParser = r => OptionParsing.WritableDirectory(r, "--out")!,
    };

    private readonly Option<double[]?> _changed = new("--changed")
    {
        Description = "Sync a populated target instead of filling an empty one: before every run the target equals the source at one instant and the source then changes by this share "
                      + "of its rows (70% updates, 20% inserts, 10% deletes; ChangedBaseline), e.g. 0.1%,1%,10% (or 0.01): above 0, at most 100%, each its own row. "
                      + "The cases are every merge writer with the change fetches and the full ones, and the reloads (today's writers) as the baseline; the peers the change peers "
                      + $"({string.Join(", ", PeerDefinition.All.Where(p => p.Changes).Select(p => p.Key))}) and psql-binary. Default: none (empty-target runs, as always).",
        CustomParser = r => OptionParsing.Shares(r, "--changed"),
    };

    private readonly Option<DirectoryInfo?> _reportFrom = new("--report-from")
    {
        Description = "Run nothing: write results.md, results.csv and the pictures again from DIR/results.json (e.g. after the report gained a section). Takes no other option but --no-charts.",
        CustomParser = r => OptionParsing.RecordDirectory(r, "--report-from"),
    };

    private readonly Option<FileInfo?> _readme = new("--readme")
    {
        Description = "Run nothing: render again the blocks PAGE marks from the records they name (<!-- generated: verdict of FOLDER --> … <!-- end: verdict of FOLDER -->, "
                      + "or headline; FOLDER relative to PAGE), e.g. --readme README.md. Takes no other option but --report-from and --no-charts.",
        CustomParser = r => OptionParsing.ExistingPage(r, "--readme"),
    };

    private readonly Option<string?> _connection = new("--connection")
    {
        Description = "Base Npgsql connection string of an existing PostgreSQL server (databases source/target are created if missing; a seed of the right size is reused). Default: a throwaway local cluster.",
        CustomParser = OptionParsing.ConnectionString,
    };

    private readonly Option<string?> _sourceConnection = new("--source-connection")
    {
        Description = "Npgsql connection string of YOUR database holding the table --table names (schema.name): the lab only reads it (describes the table from its catalog, " +
                      "reads it by COPY in one exported snapshot), creates the table alike in its own target database (throwaway cluster, or --connection's) and runs every " +
                      "approach that can carry it, naming the others and why before any run (docs/own-table.md). A role that may only SELECT the table is enough.",
        CustomParser = OptionParsing.ConnectionString,
    };

    private readonly Option<bool> _followInstall = Flag("--follow-install",
        "With --follow and --source-connection: opts in to INSTALLING on YOUR database, for the run only, a publication FOR TABLE the --table and a logical replication " +
        $"slot, both named {FollowMechanisms.Prefix}_<table>, and to SyncDataSource writing a heartbeat message into its WAL every few seconds; both are dropped on " +
        "every exit path (normal end, failure, Ctrl-C). The role needs REPLICATION (or superuser), ownership of the table and CREATE on the database, SELECT on the " +
        "table, and the server wal_level=logical: checked before anything is installed, each missing right named. The lab writes no row of yours: it follows for " +
        "--follow's duration whatever your own traffic changes, reading the table, its catalog and the slot's changes (docs/own-table.md).");

    private readonly Option<string?> _followPublication = new("--follow-publication")
    {
        Description = "With --follow and --source-connection: decode through YOUR publication of this name (it must publish --table; a-z, 0-9, _) instead of creating one: " +
                      $"only the replication slot ({FollowMechanisms.Prefix}_<table>) is installed, and dropped on every exit path. Needs REPLICATION (or superuser), SELECT " +
                      "on the table and wal_level=logical, checked first (docs/own-table.md).",
    };

    private readonly Option<Uri?> _sourceUrl = Url("--source-url", "Use this running SyncDataSource instead of starting one (needs --connection: the databases it reads).");
    private readonly Option<Uri?> _someServiceUrl = Url("--someservice-url", "Use this running SomeService instead of starting the services (needs --connection).");
    private readonly Option<bool> _noMaxRun = Flag("--no-max-run", "Run every case at every size, whatever its predicted time.");
    private readonly Option<bool> _tmpfs = Flag("--tmpfs", "Put the local cluster on /dev/shm with fsync, synchronous_commit and full_page_writes off (recorded in the results).");
    private readonly Option<bool> _noPeers = Flag("--no-peers", "Skip the peers (psql pipes, pgcopydb, postgres_fdw, logical replication, the tuned psql pipe).");
    private readonly Option<bool> _noCharts = Flag("--no-charts", "Skip the pictures (no matplotlib needed).");
    private readonly Option<bool> _noSizeCheck = Flag("--no-size-check",
        "Seed even when the size estimated from a sample (both databases' copies and the WAL) exceeds the free disk of the local cluster; without it such a run is refused with the figures.");

    private readonly Option<double?> _follow = new("--follow")
    {
        Description = "Keep a copy fresh instead of copying once: for each --table × --write-rate × mechanism (NpgsqlReplication through SomeService's /follow, PostgreSQL's native " +
                      "subscription, the change log polled every second), the mechanism follows the lab's source while pgbench writes for this long, e.g. 60s or 2m (1 s to 1 h); then the runner waits for the target " +
                      "to catch up, verifies it by checksum and records the commit-to-applied lag, rows applied per second and the catch-up time (docs/replication.md). Default: none.",
        CustomParser = r => OptionParsing.Duration(r, "--follow", 1, 3600),
    };

    private readonly Option<double?> _outage = new("--outage")
    {
        Description = "With --follow: after each run's catch-up, the mechanism stops applying for this long while pgbench writes on at the same rate (SomeService's follower stopped, " +
                      "its slot kept; the subscription disabled; the poll loop stopped), e.g. 30s (1 s to 1 h); the run records the WAL the slot held at the end and how long the target " +
                      "took to catch up once the mechanism started again, verified by checksum (docs/replication.md). Default: none.",
        CustomParser = r => OptionParsing.Duration(r, "--outage", 1, 3600),
    };

    private readonly Option<int?> _drain = Number("--drain", 10_000_000,
        "With --follow: after each run's catch-up, the mechanism stops, pgbench writes a backlog of about this many changes as fast as it can, the mechanism starts again; " +
        "the run records the time from the restart until the target caught up as rows/s (its capacity) and the whole system's CPU per change over it (docs/replication.md)",
        $"{BenchSettings.DefaultDrainChanges:N0}");

    private readonly Option<long[]> _writeRate = new("--write-rate")
    {
        Description = $"With --follow: the source's write rates in rows per second, comma-separated, each its own run ({OptionParsing.WholeNumber(1, 1_000_000)}); pgbench's -R is the rate over " +
                      $"the script's mean rows per transaction (FollowLoad). Default: {string.Join(',', BenchSettings.DefaultWriteRates)}.",
        CustomParser = r => OptionParsing.Sizes(r, "--write-rate", 1, 1_000_000) ?? [],
    };

    private readonly Option<string[]> _peers = Names("--peers", "peer", PeerDefinition.Keys, k => PeerDefinition.Find(k) is not null,
        "Peers to run, e.g. psql-binary,psql-binary-tuned for the two the COPY cases are measured against. Default: every peer that fills an emptied target; with --changed the change peers and psql-binary.");

    private readonly Option<string[]> _profile = Names("--profile", "runtime profile", RuntimeProfiles.Names, n => RuntimeProfiles.Find(n) is not null,
        "Runtime profiles to measure under; the first is the headline table's and runs every case and the peers, the others run the --profile-cases cases, each after restarting the services. " +
        $"Default: {string.Join(',', BenchSettings.DefaultProfileNames)}; {BenchSettings.DefaultProfileNames[0]} alone for a sweep (every further profile would restart and warm up the services at every size) and with --someservice-url.");

    private readonly Option<string[]> _profileCases = new("--profile-cases")
    {
        Description = $"Cases measured under the profiles after the first, as Fetch:Insert with * for any; comma-separated or repeated. Default: {BenchSettings.DefaultProfileCasesText}.",
    };

    private readonly Option<string[]> _link = Names("--link", "link", NetworkLink.Names, n => NetworkLink.Find(n) is not null,
        "Links between the source's host and the target's, measured in turn; loopback is one host, the others two network namespaces, each with its own PostgreSQL, " +
        $"joined by one veth pair shaped with tc tbf at that rate (docs/running.md). Default: {string.Join(',', BenchSettings.DefaultLinks.Select(l => l.Name))}.");

    private readonly Option<string[]> _compression = Names("--compression", "compression", BodyCompression.NameList, n => BodyCompression.TryParse(n, out _),
        $"Content codings the selected cases run under; each case × coding is its own row (the trigger's c=; SyncDataSource compresses at CompressionLevel.Fastest). Peers run once. Default: {string.Join(',', BenchSettings.DefaultCompressions)}.");

    private readonly Option<string[]> _table = Names("--table", "table", string.Join(", ", LabTableNames),
        n => SyncTable.Find(n) is not null || LabTables.Find(n) is not null || IsOwnTable(n),
        "Tables every selected case and peer moves, each seeded with --rows rows; a table other than users is its own row, ranked and compared with its own psql pipe. " +
        "public.users and public.orders are the same rows moved as the lab moves a table it has no classes for (described from the catalog, written through generated row " +
        "classes; no peers): given beside users or orders, results.md sets each case's generated classes against its written ones. " +
        $"{string.Join(", ", LabTables.Names)}: the lab's tables defined by their folder alone (SyncData.Harness/Tables/<name>/), moved the same way. " +
        $"With --source-connection: one table of that database, as schema.name (SQL's spelling: quote a mixed-case part, \"Team Sales\".\"Order Lines\"). Default: {string.Join(',', BenchSettings.DefaultTables.Select(t => t.Name))}.");

    /// <summary>What the changed option would install on a user's database, said when it is refused there.</summary>
    public const string ChangedOnOwnTable =
        "--changed with --source-connection would install on YOUR database the lab's change log: a table of changed keys, triggers on your table that write to it on every " +
        "insert, update and delete, and the functions a change fetch reads it by (sql/change-tracking.sql). The lab only reads a user's database, so it is refused; an explicit " +
        "opt-in that installs them is not built yet (issue 49).";

    /// <summary>The root command with every option and check; its action runs <paramref name="run"/> with the settings.</summary>
    public RootCommand Command(Func<BenchSettings, CancellationToken, Task<int>> run)
    {
        var root = new RootCommand(
            "Runs every runnable fetch × insert combination of SyncDataBenchmark (and the peers: psql pipes, pgcopydb, postgres_fdw, logical replication) against the same seeded table, " +
            "verifies every run, and writes results.json, results.csv, results.md and pictures. Exits 1 if any run failed or was not verified.")
        {
            _rows, _maxRunSeconds, _noMaxRun, _repeat, _maxRepeat, _budget, _ciWidth, _caseBudget, _warmup, _maxWarmup, _jitThreshold, _seed, _cases, _pageSize, _batchSize, _out, _connection, _sourceConnection, _sourceUrl, _someServiceUrl, _tmpfs, _noPeers, _peers, _noCharts, _noSizeCheck, _follow, _followInstall, _followPublication, _outage, _drain, _writeRate, _profile, _profileCases, _link, _compression, _table, _changed, _reportFrom, _readme,
        };
        _cases.Validators.Add(r => ValidateCases(r, "--cases"));
        _profileCases.Validators.Add(r => ValidateCases(r, "--profile-cases"));
        root.Validators.Add(ValidateTogether);
        root.SetAction((parse, ct) => run(Settings(parse), ct));
        return root;
    }

    /// <summary>
    /// Every problem with the command line, one line each: unknown tokens first, named with the options there are (in
    /// place of the parser's own line for each), then bad values and contradictions.
    /// </summary>
    public static IReadOnlyList<string> Errors(ParseResult parse)
    {
        var options = string.Join(", ", parse.RootCommandResult.Command.Options.Select(o => o.Name));
        var parserLines = parse.UnmatchedTokens.SelectMany(ParserLines).ToHashSet(StringComparer.Ordinal);
        return parse.UnmatchedTokens.Select(t => $"'{t}' is not an option of this command. Valid options: {options}.")
            .Concat(parse.Errors.Where(e => e.SymbolResult != parse.RootCommandResult || !parserLines.Contains(e.Message)).Select(e => e.Message)).ToList();
    }

    /// <summary>
    /// The parser's own error for an unknown token, as a bare command reports the same token: its wording is internal
    /// and localized, so it is asked for rather than matched against English text.
    /// </summary>
    private static IEnumerable<string> ParserLines(string token) => new RootCommand().Parse([token]).Errors.Select(e => e.Message);

    public BenchSettings Settings(ParseResult parse) => new()
    {
        Sizes = parse.GetValue(_rows)!,
        MaxRunSeconds = parse.GetValue(_noMaxRun) ? null : parse.GetValue(_maxRunSeconds) ?? BenchSettings.DefaultMaxRunSeconds,
        // "--max-repeat 3" alone lowers the least runs with it.
        Repeat = parse.GetValue(_repeat) ?? Math.Min(BenchSettings.DefaultRepeat, parse.GetValue(_maxRepeat) ?? int.MaxValue),
        Warmups = parse.GetValue(_warmup) ?? BenchSettings.DefaultWarmups,
        // Without --max-repeat a given --repeat is the count: "--repeat 1" is one timed run a case, not the first of twenty.
        MaxRepeat = parse.GetValue(_maxRepeat) ?? parse.GetValue(_repeat) ?? BenchSettings.DefaultMaxRepeat,
        BudgetSeconds = parse.GetValue(_budget) ?? BenchSettings.DefaultBudgetSeconds,
        TargetWidth = parse.GetValue(_ciWidth) ?? BenchSettings.DefaultTargetWidth,
        CaseBudgetSeconds = parse.GetValue(_caseBudget) ?? BenchSettings.DefaultCaseBudgetSeconds,
        MaxWarmups = parse.GetValue(_maxWarmup) ?? Math.Max(BenchSettings.DefaultMaxWarmups, parse.GetValue(_warmup) ?? BenchSettings.DefaultWarmups),
        JitThresholdMs = parse.GetValue(_jitThreshold) ?? BenchSettings.DefaultJitThresholdMs,
        Seed = parse.GetValue(_seed) ?? Random.Shared.Next(),
        Cases = CaseSelection.Parse(parse.GetValue(_cases) ?? [], out _),
        PageSize = parse.GetValue(_pageSize),
        BatchSize = parse.GetValue(_batchSize),
        Out = parse.GetValue(_out)!,
        Connection = parse.GetValue(_connection),
        SourceConnection = parse.GetValue(_sourceConnection),
        FollowInstall = parse.GetValue(_followInstall),
        FollowPublication = parse.GetValue(_followPublication),
        OwnTable = parse.GetValue(_sourceConnection) is null ? null : OptionParsing.List(parse.GetValue(_table) ?? []).Single(),
        RowsGiven = parse.GetResult(_rows) is { Implicit: false },
        SourceUrl = parse.GetValue(_sourceUrl),
        SomeServiceUrl = parse.GetValue(_someServiceUrl),
        Tmpfs = parse.GetValue(_tmpfs),
        Peers = !parse.GetValue(_noPeers),
        PeerKeys = parse.GetValue(_peers) is { Length: > 0 } peers ? OptionParsing.List(peers).Select(k => PeerDefinition.Find(k)!.Key).ToList() : null,
        Charts = !parse.GetValue(_noCharts),
        SizeCheck = !parse.GetValue(_noSizeCheck),
        Profiles = Profiles(parse).Select(n => RuntimeProfiles.Find(n)!).ToList(),
        Links = OrDefault(OptionParsing.List(parse.GetValue(_link) ?? []).Select(n => NetworkLink.Find(n)!).ToList(), BenchSettings.DefaultLinks),
        ProfileCases = parse.GetValue(_profileCases) is { Length: > 0 } given ? CaseSelection.Parse(given, out _) : CaseSelection.DefaultProfileCases,
        Compressions = Compressions(parse.GetValue(_compression) ?? []),
        // A user's table is described once the lab reaches its database (BenchLab): until then the default stands in.
        Tables = parse.GetValue(_sourceConnection) is not null ? BenchSettings.DefaultTables
            : OrDefault(OptionParsing.List(parse.GetValue(_table) ?? []).Select(n => SyncTable.FindCatalogView(n) ?? LabTables.Find(n) ?? SyncTable.Named(n)).ToList(), BenchSettings.DefaultTables),
        ReportFrom = parse.GetValue(_reportFrom),
        Readme = parse.GetValue(_readme),
        // Not given reads as an empty list: no shares.
        Changed = parse.GetValue(_changed) is { Length: > 0 } shares ? shares : null,
        FollowSeconds = parse.GetValue(_follow),
        OutageSeconds = parse.GetValue(_outage),
        DrainChanges = parse.GetValue(_drain) ?? BenchSettings.DefaultDrainChanges,
        WriteRates = parse.GetValue(_writeRate) is { Length: > 0 } rates ? rates : BenchSettings.DefaultWriteRates,
    };

    /// <summary>--profile as given; else every default profile, or the default alone for a sweep or someone else's services.</summary>
    private List<string> Profiles(ParseResult parse) =>
        OptionParsing.List(parse.GetValue(_profile) ?? []) is { Count: > 0 } given ? given
        : parse.GetValue(_rows)!.Length > 1 || parse.GetValue(_someServiceUrl) is not null ? [BenchSettings.DefaultProfileNames[0]]
        : [.. BenchSettings.DefaultProfileNames];

    /// <summary>The --compression names as BodyCompression writes them, in the order given; none when none given.</summary>
    public static IReadOnlyList<string> Compressions(IEnumerable<string> values) =>
        OrDefault(OptionParsing.List(values).Select(v => BodyCompression.TryParse(v, out var name) ? name : v).ToList(), BenchSettings.DefaultCompressions);

    /// <summary>A name that can only be a table of a user's database: schema-qualified, and none of the lab's.</summary>
    private static bool IsOwnTable(string name) => SyncTable.Find(name) is null && name.Contains('.', StringComparison.Ordinal);

    /// <summary>Without --source-connection: a schema-qualified name that is not one of the lab's tables' catalog views.</summary>
    private static bool IsForeign(string name) => IsOwnTable(name) && !IsCatalogView(name);

    private static bool IsCatalogView(string name) => SyncTable.FindCatalogView(name) is not null;

    /// <summary>A lab table moved as described from its catalog: a catalog view (public.users) or a folder table (readings).</summary>
    private static bool IsDescribedLabTable(string name) => IsCatalogView(name) || LabTables.Find(name) is not null;

    /// <summary>Every name --table takes without --source-connection.</summary>
    private static IEnumerable<string> LabTableNames => SyncTable.All.Select(t => t.Name).Concat(SyncTable.All.Select(t => SyncTable.CatalogViewOf(t).Name)).Concat(LabTables.Names);

    /// <summary>Why a table the lab moves as described (public.users, readings) does not run with --changed.</summary>
    public static readonly string CatalogViewNotChanged =
        $"--changed cannot move public.users, public.orders or {string.Join(", ", LabTables.Names)}: the change fetches read the lab's change log, kept for users and orders " +
        "alone, and a table described from its catalog is carried only by the fetches that need no row class of the lab's (docs/own-table.md). Give --changed with users or orders.";

    /// <summary>--source-connection's rules: one table of the user's, only read, on one host, the services the runner's own.</summary>
    private IEnumerable<(bool Broken, string Why)> OwnTableRules(CommandResult r)
    {
        var own = r.GetValue(_sourceConnection) is not null;
        var tables = OptionParsing.List(r.GetValue(_table) ?? []);
        return
        [
            (!own && tables.Any(IsForeign), $"--table {string.Join(',', tables.Where(IsForeign))}: a table of your own database needs --source-connection " +
                "(the lab's own tables: users, orders; public.users, public.orders: the same tables moved through row classes generated from the catalog)."),
            (!own && tables.Any(IsDescribedLabTable) && r.GetValue(_changed) is { Length: > 0 }, CatalogViewNotChanged),
            (own && (tables.Count != 1 || !IsOwnTable(tables[0])), "--source-connection needs --table with exactly one table of that database, as schema.name (the lab's users and orders are its own)."),
            (own && r.GetValue(_changed) is { Length: > 0 }, ChangedOnOwnTable),
            (own && (r.GetValue(_sourceUrl) is not null || r.GetValue(_someServiceUrl) is not null),
                "--source-connection starts both services itself (SyncDataSource on your database, read only): --source-url and --someservice-url do not apply."),
            (own && OptionParsing.List(r.GetValue(_link) ?? []).Any(n => NetworkLink.Find(n) is { Shaped: true }),
                "--source-connection runs on one host: a shaped --link builds its own two hosts, whose source cluster is not your database."),
        ];
    }

    /// <summary>
    /// --follow's rules: the options it honours (one size, the tables, the output, the lab's own cluster or --connection's,
    /// --tmpfs, --batch-size as the follower's batch, --seed for the runs' order, --repeat as each cell's runs, --drain, --no-charts, one --profile for the
    /// services); every other one given is named as not applying.
    /// </summary>
    private IEnumerable<(bool Broken, string Why)> FollowRules(CommandResult r)
    {
        var follow = r.GetResult(_follow) is { Implicit: false };
        Option[] honoured = [_follow, _outage, _drain, _writeRate, _rows, _table, _out, _connection, _tmpfs, _batchSize, _seed, _repeat, _noCharts, _noSizeCheck, _profile];
        var own = r.GetValue(_sourceConnection) is not null;
        var publication = r.GetValue(_followPublication);
        var optedIn = r.GetValue(_followInstall) || publication is not null;
        var ignored = r.Children.OfType<OptionResult>().Where(o => !o.Implicit && !honoured.Contains(o.Option)).Select(o => o.Option.Name).ToList();
        return
        [
            (!follow && r.GetResult(_writeRate) is { Implicit: false }, "--write-rate is the write load of --follow: give --follow DURATION with it (e.g. --follow 60s)."),
            (!follow && r.GetResult(_outage) is { Implicit: false }, "--outage stops a --follow mechanism for a while: give --follow DURATION with it (e.g. --follow 30s --outage 30s)."),
            (!follow && r.GetResult(_drain) is { Implicit: false }, "--drain measures a --follow mechanism's capacity: give --follow DURATION with it (e.g. --follow 20s --drain 50000)."),
            (follow && own && !optedIn, FollowOnOwnTable),
            ((!follow || !own) && optedIn, "--follow-install and --follow-publication opt in to following YOUR table: give them with --follow DURATION and --source-connection."),
            (r.GetValue(_followInstall) && publication is not null,
                "--follow-install creates a publication, --follow-publication names yours: give one of them."),
            (publication is not null && (!ReplicationRoutes.IsSlotName(publication) || publication.StartsWith(FollowMechanisms.Prefix, StringComparison.Ordinal)),
                $"--follow-publication: '{publication}' is not a publication the lab decodes through: a-z, 0-9, _ (at most 63), not starting with {FollowMechanisms.Prefix} (the lab's own, which it drops)."),
            (follow && own && optedIn && new Option[] { _writeRate, _outage, _drain }.Any(o => r.GetResult(o) is { Implicit: false }),
                "--write-rate, --outage and --drain write into the table with pgbench: on YOUR table the lab writes nothing, so --follow follows your own traffic for its duration; give them without --source-connection."),
            (follow && ignored.Count > 0 && r.GetValue(_sourceConnection) is null,
                $"--follow measures its own matrix (mechanism × --write-rate × --table, on the lab's own tables at one --rows size) and cannot honour {string.Join(", ", ignored)}: "
                + "those choose cases, peers, profiles, repeats, links or shares of the copy-once runs. Give them without --follow."),
            (follow && r.GetValue(_rows) is { Length: > 1 }, "--follow runs at one size: give --rows one number."),
            (follow && OptionParsing.List(r.GetValue(_profile) ?? []).Count > 1, "--follow starts the services once, under one runtime profile: give --profile one name (default: default)."),
            (follow && OptionParsing.List(r.GetValue(_table) ?? []).Any(IsCatalogView),
                $"--follow follows users and orders by their own names: public.users and public.orders (their rows under another name) do not apply; the folder tables ({string.Join(", ", LabTables.Names)}) do."),
        ];
    }

    /// <summary>What --follow would install on a user's database, said when it is refused there.</summary>
    public const string FollowOnOwnTable =
        "--follow with --source-connection would install on YOUR database a publication and a logical replication slot (which holds WAL until dropped). The lab does " +
        "not write a user's database unless asked, so it is refused: opt in with --follow-install (a publication and a slot, both dropped on every exit path), or " +
        "--follow-publication NAME (your publication; only the slot is made and dropped). The lab never writes your table: it follows your own traffic.";

    /// <summary>The values given, or the option's one default (BenchSettings) when none were.</summary>
    private static IReadOnlyList<T> OrDefault<T>(List<T> given, IReadOnlyList<T> defaults) => given.Count > 0 ? given : defaults;

    private static Option<int?> Number(string name, int max, string description, string defaultValue) => new(name)
    {
        Description = $"{description} ({OptionParsing.WholeNumber(1, max)}). Default: {defaultValue}.",
        CustomParser = r => (int?)OptionParsing.Number(r, name, 1, max),
    };

    private static Option<bool> Flag(string name, string description) => new(name) { Description = description };

    private static Option<Uri?> Url(string name, string description) => new(name)
    {
        Description = description,
        CustomParser = r => OptionParsing.HttpUrl(r, name),
    };

    /// <summary>A comma-separated (or repeated) list of known names: at least one, each known, none twice.</summary>
    private static Option<string[]> Names(string name, string noun, string known, Func<string, bool> isKnown, string description)
    {
        var option = new Option<string[]>(name) { Description = $"{description} One or more of {known}, comma-separated or repeated." };
        option.Validators.Add(r =>
        {
            var names = OptionParsing.List(r.GetValueOrDefault<string[]>() ?? []);
            var accepted = $"one or more of {known}, comma-separated";
            if (names.Count == 0)
            {
                r.AddError(OptionParsing.Invalid(name, string.Join(' ', r.Tokens.Select(t => t.Value)), accepted));
            }

            foreach (var unknown in names.Where(n => !isKnown(n)))
            {
                r.AddError(OptionParsing.Invalid(name, unknown, accepted));
            }

            if (names.Distinct(StringComparer.OrdinalIgnoreCase).Count() != names.Count)
            {
                r.AddError($"{name}: '{string.Join(',', names)}' names a {noun} twice.");
            }
        });
        return option;
    }

    private static void ValidateCases(OptionResult r, string option)
    {
        var values = r.Tokens.Select(t => t.Value).ToArray();
        if (values.Any(string.IsNullOrWhiteSpace))
        {
            r.AddError(OptionParsing.Invalid(option, "", "Fetch:Insert patterns, either side may be * (e.g. NpgsqlCopy:*)"));
            return;
        }

        CaseSelection.Parse(values, out var error);
        if (error is not null)
        {
            r.AddError($"{option}: " + error.Replace("--cases", option, StringComparison.Ordinal));
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
        // Only a value that parsed: a bad one has its own error line, and the other options are then not in question.
        if ((r.GetResult(_reportFrom) is { Implicit: false } && r.GetValue(_reportFrom) is not null)
            || (r.GetResult(_readme) is { Implicit: false } && r.GetValue(_readme) is not null))
        {
            var others = r.Children.OfType<OptionResult>().Where(o => !o.Implicit && o.Option != _reportFrom && o.Option != _readme && o.Option != _noCharts).Select(o => o.Option.Name).ToList();
            if (others.Count > 0)
            {
                yield return $"--report-from and --readme only write reports again from records and run nothing: {string.Join(", ", others)} would be ignored. Give them alone (or with --no-charts).";
            }

            yield break;
        }

        var hasConnection = r.GetValue(_connection) is not null;
        var hasUrl = r.GetValue(_sourceUrl) is not null || r.GetValue(_someServiceUrl) is not null;
        var rules = new (bool Broken, string Why)[]
        {
            (!hasConnection && hasUrl, "--source-url and --someservice-url need --connection: the runner seeds and verifies the databases those services use."),
            (r.GetValue(_noPeers) && r.GetValue(_peers) is { Length: > 0 }, "--peers and --no-peers contradict each other: give one."),
            (r.GetValue(_someServiceUrl) is not null && OptionParsing.List(r.GetValue(_profile) ?? []).Any(p => !string.Equals(p, RuntimeProfiles.DefaultName, StringComparison.OrdinalIgnoreCase)),
                "--profile applies to services the runner starts; with --someservice-url the services run whatever they were started with (recorded as reported)."),
            (r.GetValue(_noMaxRun) && r.GetValue(_maxRunSeconds) is not null, "--max-run-seconds and --no-max-run contradict each other: give one."),
            (r.GetValue(_maxRepeat) is { } maxRepeat && r.GetValue(_repeat) is { } repeat && repeat > maxRepeat,
                "--repeat is more than --max-repeat: the least runs per case cannot exceed the most."),
            (r.GetValue(_maxWarmup) is { } maxWarmup && (r.GetValue(_warmup) ?? BenchSettings.DefaultWarmups) > maxWarmup,
                "--warmup is more than --max-warmup: the least warm-ups per case cannot exceed the most."),
            (OptionParsing.List(r.GetValue(_link) ?? []).Any(n => NetworkLink.Find(n) is { Shaped: true }) && (hasConnection || hasUrl),
                "--link with a shaped link builds its own two hosts (each with its own cluster and service): it cannot use --connection, --source-url or --someservice-url."),
            (hasConnection && r.GetValue(_tmpfs), "--tmpfs applies to the runner's own throwaway cluster, not to an existing server given by --connection."),
        };
        var changed = r.GetValue(_changed) is { Length: > 0 };
        var changePeers = OptionParsing.List(r.GetValue(_peers) ?? []).Where(k => PeerDefinition.Find(k) is { Changes: true }).ToList();
        var cases = CaseSelection.Parse(r.GetValue(_cases) ?? [], out _);
        rules =
        [
            .. rules,
            .. OwnTableRules(r),
            .. FollowRules(r),
            (!changed && changePeers.Count > 0,
                $"--peers {string.Join(',', changePeers)}: these bring a populated target up to date, so they run only with --changed (the share of rows changed before each run)."),
            (!changed && r.GetValue(_cases) is { Length: > 0 } && !CaseNumbers.Runnable.Any(c => !c.Merges && cases.Matches(c.Fetch, c.Insert)),
                $"--cases {string.Join(',', cases.Patterns)} selects only cases that merge into a populated target: they run only with --changed."),
        ];
        foreach (var (broken, why) in rules.Where(x => x.Broken))
        {
            yield return why;
        }
    }
}
