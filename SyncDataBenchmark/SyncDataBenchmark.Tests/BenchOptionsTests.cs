using System.CommandLine;
using SyncData.Harness;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the runner's command line, parsed without running anything.</summary>
[Trait("Tier", "Fast")]
public sealed class BenchOptionsTests
{
    private static readonly string Out = Path.Combine(Path.GetTempPath(), "syncdata-options-test");

    private static (BenchOptions Options, ParseResult Parse) Parse(params string[] args)
    {
        var options = new BenchOptions();
        return (options, options.Command((_, _) => Task.FromResult(0)).Parse([.. args, "--out", Out]));
    }

    [Theory]
    [InlineData("--bogus", "--bogus")]
    [InlineData("--profile default --bogus", "--bogus")]
    [InlineData("--cases NpgsqlCopy:* --bogus", "--bogus")]
    [InlineData("extra", "extra")]
    public void An_unknown_option_is_named_as_unknown_with_the_valid_options(string args, string unknown)
    {
        var errors = BenchOptions.Errors(Parse(args.Split(' ')).Parse);

        var line = Assert.Single(errors);
        Assert.True(line.StartsWith($"'{unknown}' is not an option of this command. Valid options: --help, --version, --rows, ", StringComparison.Ordinal), line);
        Assert.Contains("--profile, --profile-cases, --link, --compression, --table, --changed, --report-from, --readme.", line);
    }

    /// <summary>Every argument that is not an option is refused (above), so the help offers none.</summary>
    [Fact]
    public void Help_lists_the_options_and_offers_no_other_arguments()
    {
        var output = new StringWriter();
        var parse = new BenchOptions().Command((_, _) => Task.FromResult(0)).Parse(["--help"]);

        Assert.Equal(0, parse.Invoke(new InvocationConfiguration { Output = output }));
        var help = output.ToString();
        Assert.Contains("--rows", help, StringComparison.Ordinal);
        Assert.Contains("--report-from", help, StringComparison.Ordinal);
        Assert.DoesNotContain("[--]", help, StringComparison.Ordinal);
        Assert.DoesNotContain("additional arguments", help, StringComparison.OrdinalIgnoreCase);
    }

    [Theory]
    [InlineData(new string[0], new[] { "default", "workstation", "tuned" })]
    [InlineData(new[] { "--rows", "1000" }, new[] { "default", "workstation", "tuned" })]
    [InlineData(new[] { "--rows", "1000,2000" }, new[] { "default" })]
    [InlineData(new[] { "--connection", "Host=127.0.0.1", "--someservice-url", "http://127.0.0.1:5180" }, new[] { "default" })]
    [InlineData(new[] { "--profile", "tuned,default" }, new[] { "tuned", "default" })]
    [InlineData(new[] { "--rows", "1000,2000", "--profile", "default", "--profile", "workstation" }, new[] { "default", "workstation" })]
    public void The_profiles_default_to_all_three_but_one_for_a_sweep_or_someone_elses_services(string[] args, string[] profiles)
    {
        var (options, parse) = Parse(args);

        Assert.Empty(BenchOptions.Errors(parse));
        Assert.Equal(profiles, options.Settings(parse).Profiles.Select(p => p.Name));
    }

    /// <summary>Every rule across options, each refused with its own line.</summary>
    [Theory]
    [InlineData(new[] { "--report-from", "{record}", "--rows", "1000" }, "--report-from and --readme only write reports again from records and run nothing: --rows, --out would be ignored")]
    [InlineData(new[] { "--someservice-url", "http://127.0.0.1:1" }, "need --connection")]
    [InlineData(new[] { "--source-url", "http://127.0.0.1:1" }, "need --connection")]
    [InlineData(new[] { "--peers", "psql-binary", "--no-peers" }, "--peers and --no-peers contradict each other")]
    [InlineData(new[] { "--connection", "Host=h", "--someservice-url", "http://h:1", "--profile", "tuned" }, "--profile applies to services the runner starts")]
    [InlineData(new[] { "--max-run-seconds", "5", "--no-max-run" }, "--max-run-seconds and --no-max-run contradict each other")]
    [InlineData(new[] { "--connection", "Host=h", "--link", "100mbit" }, "cannot use --connection, --source-url or --someservice-url")]
    [InlineData(new[] { "--connection", "Host=h", "--tmpfs" }, "--tmpfs applies to the runner's own throwaway cluster")]
    [InlineData(new[] { "--profile", "tunned" }, "--profile: 'tunned' is not valid: one or more of default, workstation, tuned")]
    [InlineData(new[] { "--link", "1gbit,1GBIT" }, "--link: '1gbit,1GBIT' names a link twice.")]
    [InlineData(new[] { "--table", "users,invoices" }, "--table: 'invoices' is not valid: one or more of users, orders, public.users, public.orders")]
    [InlineData(new[] { "--table", "orders", "--table", "orders" }, "--table: 'orders,orders' names a table twice.")]
    [InlineData(new[] { "--changed", "0%" }, "--changed: '0%' is not valid: one or more comma-separated shares of the rows, each named once, each above 0 and at most 100%")]
    [InlineData(new[] { "--changed", "101%" }, "--changed: '101%' is not valid")]
    [InlineData(new[] { "--changed", "1.5" }, "--changed: '1.5' is not valid")]
    [InlineData(new[] { "--changed", "1%,0.01" }, "--changed: '1%,0.01' is not valid")]
    [InlineData(new[] { "--changed", "ten" }, "--changed: 'ten' is not valid")]
    [InlineData(new[] { "--peers", "psql-merge,psql-binary" }, "--peers psql-merge: these bring a populated target up to date, so they run only with --changed")]
    [InlineData(new[] { "--cases", "*:EFMerge" }, "--cases *:EFMerge selects only cases that merge into a populated target: they run only with --changed.")]
    [InlineData(new[] { "--table", "sales.lines" }, "--table sales.lines: a table of your own database needs --source-connection")]
    [InlineData(new[] { "--table", "public.users", "--changed", "1%" }, "--changed cannot move public.users, public.orders or ")]
    [InlineData(new[] { "--table", "users,public.orders", "--follow", "10s" }, "--follow follows users and orders by their own names: public.users and public.orders")]
    [InlineData(new[] { "--source-connection", "Host=h" }, "--source-connection needs --table with exactly one table of that database, as schema.name")]
    [InlineData(new[] { "--source-connection", "Host=h", "--table", "orders" }, "--source-connection needs --table with exactly one table")]
    [InlineData(new[] { "--source-connection", "Host=h", "--table", "a.b,c.d" }, "--source-connection needs --table with exactly one table")]
    [InlineData(new[] { "--source-connection", "Host=h", "--table", "a.b", "--changed", "1%" },
        "--changed with --source-connection would install on YOUR database the lab's change log: a table of changed keys, triggers on your table")]
    [InlineData(new[] { "--source-connection", "Host=h", "--table", "a.b", "--connection", "Host=h", "--someservice-url", "http://h:1" }, "--source-url and --someservice-url do not apply")]
    [InlineData(new[] { "--source-connection", "Host=h", "--table", "a.b", "--link", "1gbit" }, "--source-connection runs on one host")]
    [InlineData(new[] { "--source-connection", "not a connection string", "--table", "a.b" }, "--source-connection: 'not a connection string' is not valid: an Npgsql connection string")]
    public void Options_that_cannot_go_together_are_refused(string[] args, string message)
    {
        var record = Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", "floor-warm");
        var errors = BenchOptions.Errors(Parse([.. args.Select(a => a.Replace("{record}", record, StringComparison.Ordinal))]).Parse);

        Assert.Contains(errors, e => e.Contains(message, StringComparison.Ordinal));
    }

    [Fact]
    public void Options_that_go_together_parse_to_their_settings()
    {
        var (options, parse) = Parse("--rows", "300,100", "--repeat", "2", "--warmup", "4", "--cases", "NpgsqlCopy:*", "--peers", "PSQL-BINARY", "--no-max-run",
            "--link", "loopback,100mbit", "--compression", "gzip", "--table", "ORDERS,users");

        Assert.Empty(BenchOptions.Errors(parse));
        var settings = options.Settings(parse);
        Assert.Equal([100L, 300L], settings.Sizes);
        Assert.Equal((2, 4, (double?)null), (settings.Repeat, settings.Warmups, settings.MaxRunSeconds));
        Assert.Equal(["psql-binary"], settings.PeerKeys!);
        Assert.Equal(["loopback", "100mbit"], settings.Links.Select(l => l.Name));
        Assert.Equal(["gzip"], settings.Compressions);
        Assert.Equal([SyncData.Postgres.SyncTable.Orders, SyncData.Postgres.SyncTable.Users], settings.Tables);
    }

    [Fact]
    public void A_lab_table_named_by_its_schema_is_its_catalog_view_a_folder_table_is_to_be_described_and_public_users_is_your_own_with_source_connection()
    {
        // Each folder table (LabTables) too, named in any letter case.
        var (options, parse) = Parse(["--table", string.Join(',', new[] { "users", "PUBLIC.USERS", "public.orders" }.Concat(LabTables.Names.Select(n => n.ToUpperInvariant())))]);

        Assert.Empty(BenchOptions.Errors(parse));
        var tables = options.Settings(parse).Tables;
        Assert.Equal(new[] { "users", "public.users", "public.orders" }.Concat(LabTables.Names), tables.Select(t => t.Name));
        Assert.Equal(new[] { null, SyncData.Postgres.SyncTable.Users, SyncData.Postgres.SyncTable.Orders }.Concat(LabTables.Names.Select(_ => (SyncData.Postgres.SyncTable?)null)),
            tables.Select(t => t.Behind));
        Assert.Equal(new[] { false, true, true }.Concat(LabTables.Names.Select(_ => true)), tables.Select(t => t.Undescribed));
        foreach (var folder in LabTables.Names)
        {
            Assert.Contains(BenchOptions.Errors(Parse("--table", folder, "--changed", "1%").Parse), e => e.Contains("--changed cannot move", StringComparison.Ordinal));
        }
        // With --source-connection, public.users is a table of that database like any other.
        var (own, ownParse) = Parse("--source-connection", "Host=h", "--table", "public.users");
        Assert.Empty(BenchOptions.Errors(ownParse));
        Assert.Equal("public.users", own.Settings(ownParse).OwnTable);
    }

    [Fact]
    public void A_table_of_your_own_is_named_for_the_lab_to_describe_and_rows_given_is_remembered_to_be_said()
    {
        var (options, parse) = Parse("--source-connection", "Host=h;Username=reader", "--table", "\"Team Sales\".\"Order Lines\"", "--rows", "10");

        Assert.Empty(BenchOptions.Errors(parse));
        var settings = options.Settings(parse);
        Assert.Equal(("Host=h;Username=reader", "\"Team Sales\".\"Order Lines\"", true), (settings.SourceConnection, settings.OwnTable, settings.RowsGiven));
        Assert.False(options.Settings(Parse("--source-connection", "Host=h", "--table", "s.t").Parse).RowsGiven);
    }

    [Fact]
    public void The_statistics_options_parse_to_their_settings_and_default_to_BenchSettings()
    {
        var (options, parse) = Parse("--seed", "42", "--max-repeat", "12", "--ci-width", "4%", "--case-budget", "30", "--jit-threshold-ms", "5", "--max-warmup", "3");

        Assert.Empty(BenchOptions.Errors(parse));
        var settings = options.Settings(parse);
        Assert.Equal((42, 12, 0.04, 30.0, 5.0, 3), (settings.Seed, settings.MaxRepeat, settings.TargetWidth, settings.CaseBudgetSeconds, settings.JitThresholdMs, settings.MaxWarmups));

        var (plain, none) = Parse();
        var defaults = plain.Settings(none);
        Assert.Equal((BenchSettings.DefaultRepeat, BenchSettings.DefaultMaxRepeat, BenchSettings.DefaultTargetWidth, BenchSettings.DefaultCaseBudgetSeconds, BenchSettings.DefaultJitThresholdMs),
            (defaults.Repeat, defaults.MaxRepeat, defaults.TargetWidth, defaults.CaseBudgetSeconds, defaults.JitThresholdMs));
        // No --seed: a seed of its own, which the record keeps (ResultsFile) so the order can be repeated.
        Assert.InRange(defaults.Seed, 0, int.MaxValue);

        // A --warmup past --max-warmup's default raises it; a given --repeat is the count, unless --max-repeat is given too.
        var (raised, many) = Parse("--repeat", "40", "--warmup", "40");
        Assert.Empty(BenchOptions.Errors(many));
        Assert.Equal((40, 40), (raised.Settings(many).MaxRepeat, raised.Settings(many).MaxWarmups));
        var (one, once) = Parse("--repeat", "1");
        Assert.Equal((1, 1), (one.Settings(once).Repeat, one.Settings(once).MaxRepeat));
        var (adaptive, fromOne) = Parse("--repeat", "1", "--max-repeat", "9");
        Assert.Equal((1, 9), (adaptive.Settings(fromOne).Repeat, adaptive.Settings(fromOne).MaxRepeat));
        // "--max-repeat 3" alone lowers the least runs with it rather than being refused.
        var (capped, three) = Parse("--max-repeat", "3");
        Assert.Empty(BenchOptions.Errors(three));
        Assert.Equal((3, 3), (capped.Settings(three).Repeat, capped.Settings(three).MaxRepeat));
    }

    [Theory]
    [InlineData(null, 75 * 60)]
    [InlineData("90m", 90 * 60)]
    [InlineData("2h", 2 * 3600)]
    [InlineData("600", 600)]
    public void The_budget_defaults_to_75_minutes_and_takes_a_duration(string? budget, double seconds)
    {
        var (options, parse) = budget is null ? Parse() : Parse("--budget", budget);

        Assert.Empty(BenchOptions.Errors(parse));
        Assert.Equal(seconds, options.Settings(parse).BudgetSeconds);
    }

    [Fact]
    public void A_budget_under_a_minute_is_refused()
    {
        Assert.Contains(BenchOptions.Errors(Parse("--budget", "30s").Parse), e => e.Contains("--budget: '30s' is not valid", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("--repeat 40 --max-repeat 30", "--repeat is more than --max-repeat")]
    [InlineData("--warmup 3 --max-warmup 2", "--warmup is more than --max-warmup")]
    [InlineData("--ci-width 0", "--ci-width: '0' is not valid: a share above 0 and at most 100%")]
    [InlineData("--seed -1", "--seed: '-1' is not valid: a whole number from 0 to 2,147,483,647")]
    public void Statistics_options_out_of_range_are_refused(string args, string message)
    {
        var errors = BenchOptions.Errors(Parse(args.Split(' ')).Parse);

        Assert.Contains(errors, e => e.Contains(message, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("0.1%,1%,10%", new[] { 0.001, 0.01, 0.1 })]
    [InlineData("10%, 0.001 ,1 %", new[] { 0.001, 0.01, 0.1 })]
    [InlineData("100%", new[] { 1.0 })]
    [InlineData("0.5", new[] { 0.5 })]
    public void Changed_takes_shares_as_percentages_or_fractions_smallest_first(string value, double[] shares)
    {
        var (options, parse) = Parse("--changed", value, "--peers", "psql-merge,psql-binary", "--cases", "*:EFMerge");

        Assert.Empty(BenchOptions.Errors(parse));
        var settings = options.Settings(parse);
        Assert.Equal(shares, settings.Changed!);
        Assert.Equal(shares.Select(s => (double?)s), settings.Shares);
    }

    [Fact]
    public void Without_changed_the_runs_fill_an_emptied_target_and_the_change_peers_stay_out()
    {
        var (options, parse) = Parse("--rows", "1000");

        var settings = options.Settings(parse);
        Assert.Null(settings.Changed);
        Assert.Equal([null], settings.Shares);
        Assert.Equal(["psql-binary", "psql-text", "pgcopydb", "postgres-fdw", "logical-replication", "psql-binary-tuned"],
            PeerDefinition.All.Where(p => settings.RunsPeer(p.Key)).Select(p => p.Key));
        var (changedOptions, changedParse) = Parse("--changed", "1%");
        Assert.Equal(["psql-binary", "psql-merge", "postgres-fdw-merge", "logical-replication-catchup"],
            PeerDefinition.All.Where(p => changedOptions.Settings(changedParse).RunsPeer(p.Key)).Select(p => p.Key));
    }

    [Fact]
    public void Without_table_every_case_moves_users_as_before()
    {
        var (options, parse) = Parse("--rows", "1000");

        Assert.Empty(BenchOptions.Errors(parse));
        Assert.Equal([SyncData.Postgres.SyncTable.Users], options.Settings(parse).Tables);
    }
}
