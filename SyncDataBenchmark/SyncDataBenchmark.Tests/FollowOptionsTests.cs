using System.CommandLine;
using System.Text;
using SyncData.Postgres;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Follow;
using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;
using Xunit;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: --follow's command line and refusals, its lag summary from made-up lags, its results.md table, pgbench's report read.</summary>
[Trait("Tier", "Fast")]
public sealed class FollowOptionsTests
{
    private static readonly string Out = Path.Combine(Path.GetTempPath(), "syncdata-follow-options-test");

    private static (BenchOptions Options, ParseResult Parse) Parse(params string[] args)
    {
        var options = new BenchOptions();
        return (options, options.Command((_, _) => Task.FromResult(0)).Parse([.. args, "--out", Out]));
    }

    [Theory]
    [InlineData("60s", 60)]
    [InlineData("2m", 120)]
    [InlineData("90", 90)]
    public void Follow_and_write_rate_parse_into_the_settings(string duration, double seconds)
    {
        var (options, parse) = Parse("--follow", duration, "--write-rate", "100,1000,10000", "--table", "users,orders", "--rows", "1000");

        Assert.Empty(BenchOptions.Errors(parse));
        var settings = options.Settings(parse);
        Assert.Equal(seconds, settings.FollowSeconds);
        Assert.Equal([100L, 1_000L, 10_000L], settings.WriteRates);
        Assert.Equal(["users", "orders"], settings.Tables.Select(t => t.Name));
    }

    /// <summary>
    /// --repeat runs of every cell in an order drawn from --seed: the same seed the same order, another seed another; every
    /// cell --repeat times; the order not the matrix's own (mechanisms in turn), so no mechanism always runs first.
    /// </summary>
    [Fact]
    public void The_runs_repeat_each_cell_in_an_order_drawn_from_the_seed()
    {
        BenchSettings Settings(string seed)
        {
            var (options, parse) = Parse("--follow", "5s", "--write-rate", "100,1000", "--table", "users,orders", "--repeat", "3", "--drain", "5000", "--seed", seed);
            Assert.Empty(BenchOptions.Errors(parse));
            return options.Settings(parse);
        }

        string Key((SyncTable Table, long Rate, IFollowMechanism Mechanism, int Repeat) run) => $"{run.Table.Name} {run.Rate} {run.Mechanism.Name} {run.Repeat}";
        var order = FollowCommand.Order(Settings("7")).Select(Key).ToList();

        Assert.Equal(2 * 2 * FollowMechanisms.Kinds.Count * 3, order.Count);
        // Each run its own instance: a mechanism holds its run's state (the polled log's loop, syncs, failure).
        Assert.Equal(order.Count, FollowCommand.Order(Settings("7")).Select(r => r.Mechanism).Distinct(ReferenceEqualityComparer.Instance).Count());
        Assert.Equal(order.Count, order.Distinct().Count());
        Assert.Equal(order, FollowCommand.Order(Settings("7")).Select(Key));
        Assert.NotEqual(order, FollowCommand.Order(Settings("8")).Select(Key));
        var grouped = (from t in new[] { "users", "orders" } from r in new[] { 100, 1000 } from m in FollowMechanisms.Kinds from n in new[] { 1, 2, 3 } select $"{t} {r} {m().Name} {n}").ToList();
        Assert.NotEqual(grouped, order);
        Assert.Equal(5000, Settings("7").DrainChanges);
    }

    /// <summary>One --profile is the services' under --follow (the thread pool's spinning measured as a lead); none: the default.</summary>
    [Fact]
    public void Follow_runs_the_services_under_the_one_profile_given()
    {
        var (options, parse) = Parse("--follow", "5s", "--profile", "tuned");
        Assert.Empty(BenchOptions.Errors(parse));
        Assert.Equal("tuned", options.Settings(parse).MainProfile.Name);

        var (defaults, unprofiled) = Parse("--follow", "5s");
        Assert.Equal("default", defaults.Settings(unprofiled).MainProfile.Name);
    }

    [Fact]
    public void Without_follow_there_is_no_follow_matrix_and_the_rates_default()
    {
        var (options, parse) = Parse();

        Assert.Null(options.Settings(parse).FollowSeconds);
        Assert.Equal(BenchSettings.DefaultWriteRates, options.Settings(parse).WriteRates);
    }

    [Theory]
    [InlineData("--follow-install")]
    [InlineData("--follow-publication team_lines")]
    public void Follow_on_a_users_table_runs_once_opted_in(string optIn)
    {
        var (options, parse) = Parse(["--follow", "5s", "--source-connection", "Host=x", "--table", "public.t", .. optIn.Split(' ')]);

        Assert.Empty(BenchOptions.Errors(parse));
        Assert.True(options.Settings(parse).FollowsOwnTable);
    }

    [Theory]
    [InlineData("--write-rate 100", "--write-rate is the write load of --follow")]
    [InlineData("--follow 5s --cases NpgsqlCopy:*", "cannot honour --cases")]
    [InlineData("--follow 5s --peers psql-binary --compression gzip", "cannot honour --peers, --compression")]
    [InlineData("--follow 5s --changed 1%", "cannot honour --changed")]
    [InlineData("--follow 5s --rows 1000,2000", "--follow runs at one size")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t", "--follow with --source-connection would install on YOUR database a publication")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t", "opt in with --follow-install")]
    [InlineData("--follow-install --source-connection Host=x --table public.t", "--follow-install and --follow-publication opt in to following YOUR table: give them with --follow")]
    [InlineData("--follow 5s --follow-install --table users", "give them with --follow DURATION and --source-connection")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t --follow-install --follow-publication p", "give one of them")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t --follow-publication My-Pub", "--follow-publication: 'My-Pub' is not a publication")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t --follow-publication syncdata_follow_x", "not starting with syncdata_follow")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t --follow-install --write-rate 100", "on YOUR table the lab writes nothing")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t --follow-install --drain 5000", "on YOUR table the lab writes nothing")]
    [InlineData("--follow 0s", "--follow: '0s' is not valid")]
    [InlineData("--follow 5x", "--follow: '5x' is not valid")]
    [InlineData("--follow 5s --write-rate 0", "--write-rate: '0' is not valid")]
    [InlineData("--outage 30s", "--outage stops a --follow mechanism for a while")]
    [InlineData("--follow 5s --outage 0s", "--outage: '0s' is not valid")]
    [InlineData("--drain 5000", "--drain measures a --follow mechanism's capacity")]
    [InlineData("--follow 5s --max-repeat 5", "cannot honour --max-repeat")]
    [InlineData("--follow 5s --profile default,tuned", "--follow starts the services once, under one runtime profile")]
    public void Follow_refuses_what_it_cannot_honour(string args, string message)
    {
        var errors = BenchOptions.Errors(Parse(args.Split(' ')).Parse);

        Assert.Contains(errors, e => e.Contains(message, StringComparison.Ordinal));
    }

    /// <summary>
    /// 1…100 ms and 10,000 lags of 1 ms through the HdrHistogram: every one counted (10,100), the nearest-rank percentiles
    /// within its 0.1%, the largest kept; none dropped, even one past its range or below zero.
    /// </summary>
    [Fact]
    public void The_lag_summary_counts_every_lag_and_is_the_histogram_s_percentiles()
    {
        var lags = Enumerable.Range(1, 100).Select(i => (double)i).Reverse().Concat(Enumerable.Repeat(1.0, 10_000)).ToList();

        var summary = FollowLagSummary.Of(lags)!;

        Assert.Equal(10_100, summary.Count);
        Assert.Equal(1, summary.P50Ms, 0.001);
        Assert.Equal(100, summary.MaxMs, 0.1);
        var tail = FollowLagSummary.Of([.. Enumerable.Range(1, 100).Select(i => (double)i)])!;
        Assert.Equal(50, tail.P50Ms, 0.05);
        Assert.Equal(95, tail.P95Ms, 0.1);
        Assert.Equal(99, tail.P99Ms, 0.1);
        Assert.Equal(3, FollowLagSummary.Of([-0.2, 5, TimeSpan.FromDays(2).TotalMilliseconds])!.Count);
        Assert.Null(FollowLagSummary.Of([]));
    }

    [Fact]
    public void The_keeping_a_copy_fresh_tables_have_a_row_per_cell_and_per_run_and_name_a_failure_and_a_leftover()
    {
        var first = new FollowRun("users", "NpgsqlReplication", 1_000, 60)
        {
            TransactionsPerSecondAsked = 362.3, PgbenchTps = 361.9, Verified = true, Lag = new FollowLagSummary(40_000, 12, 48, 130, 410),
            RowsAppliedPerSecond = 998, CatchUpMs = 35, SourceRowsWritten = 60_000, LoadMs = 60_000, ChangeLogTriggers = false,
            MixAsked = new WriteMix(1.2, 1.2, 0.36), MixAchieved = new WriteMix(26_000, 26_000, 8_000),
            Drain = new FollowDrain(200_000, 20_000, true, null) { Cpu = new FollowDrainCpu(4_000, 2_000, 4_000, 12, null) },
            Writers = new WriterTransactionSummary(21_000, 0.734, 0.721, 0.748, 3.2),
            Cost = new FollowCost(new FollowServiceCost(1_500, 60_000_000, 60_300_000, 1_600_000, 1), null, null, "SyncDataSource never began this run"),
        };
        FollowRun[] runs =
        [
            first,
            new("orders", "native subscription", 10_000, 60) { TransactionsPerSecondAsked = 3472.2, Cost = FollowCost.NoProcess, Error = "the target did not equal the source", LeftBehind = "slot syncdata_follow" },
            first with
            {
                Repeat = 2, Lag = new FollowLagSummary(30_000, 20, 60, 100, 300), SourceRowsWritten = 50_000, LoadMs = 50_000,
                Drain = new FollowDrain(200_000, 40_000, true, null) { Cpu = new FollowDrainCpu(4_000, 2_000, 8_000, 12, null) },
            },
        ];
        var md = new StringBuilder();

        FollowTable.Append(md, runs);

        var text = md.ToString();
        Assert.Contains("## Keeping a copy fresh", text);
        Assert.Contains("| Table | Mechanism | Write rate (rows/s) | Runs | Lag p50 | Lag p99 | Timed | Written/s | Mix written | Drain (rows/s) | CPU/change (drain) |", text);
        Assert.Contains("| users | NpgsqlReplication | 1,000 | 2 of 2 | 16 ms [12 ms–20 ms] | 115 ms [100 ms–130 ms] | 70,000 of 110,000 | 1,000 [1,000–1,000] | ins 43% / upd 43% / del 13% | 7,500 [5,000–10,000] | 60 µs [50–70] |", text);
        Assert.Contains("| orders | native subscription | 10,000 | 0 of 1 | n/a | n/a | n/a | n/a | n/a | n/a | n/a |", text);
        Assert.Contains("### Each run", text);
        Assert.Contains("| Table | Mechanism | Write rate (rows/s) | Repeat | pgbench tps (asked) | Written/s | Mix (asked → written) | Lag p50 | Lag p95 | Lag p99 | Lag max | Timed | Catch-up | Drain | CPU/change (drain) | Verified |", text);
        Assert.Contains("| users | NpgsqlReplication | 1,000 | 1 | 361.9 (362.3) | 1,000 | ins 43% / upd 43% / del 13% → ins 43% / upd 43% / del 13% | 12 ms | 48 ms | 130 ms | 410 ms | 40,000 of 60,000 | 35 ms | 10,000 rows/s (200,000) | 50 µs | yes |", text);
        Assert.Contains("| orders | native subscription | 10,000 | 1 | n/a (3,472.2) | n/a | n/a | n/a | n/a | n/a | n/a | 0 | n/a | n/a | n/a | **no**: the target did not equal the source; **left behind**: slot syncdata_follow |", text);
        Assert.Contains("### What it cost: the source's writers, and each service per change", text);
        Assert.Contains("| Table | Mechanism | Write rate (rows/s) | Change log | Writers' transaction | Writers' p99 | SomeService CPU/change (total) | SomeService allocated/change (total) | SyncDataSource CPU/change (total) | SyncDataSource allocated/change (total) |", text);
        Assert.Contains("| users | NpgsqlReplication | 1,000 | off | 0.73 ms [0.72 ms–0.75 ms] | 3.20 ms | 25.0 µs (1,500 ms) | 1000 B (57.2 MiB) | n/a (SyncDataSource never began this run) | n/a (SyncDataSource never began this run) |", text);
        // A record from before the triggers were chosen per mechanism had them on in every run.
        Assert.Contains("| orders | native subscription | 10,000 | on (every run) | n/a | n/a | — | — | — | — |", text);
        var empty = new StringBuilder();
        FollowTable.Append(empty, null);
        Assert.Equal("", empty.ToString());
    }

    /// <summary>pgbench's per-transaction log under -R: the logged time counts from the scheduled start, so the lag comes off; lines without both are left out.</summary>
    [Theory]
    [InlineData("0 17 1250 0 1764230000 123456 250", 1.0)]
    [InlineData("1 3 980 0 1764230000 654321 0", 0.98)]
    [InlineData("0 18 skipped 0 1764230000 123456 250", null)]
    [InlineData("0 19 1250 0 1764230000 123456", null)]
    [InlineData("0 20 100 0 1764230000 123456 250", null)]
    public void Pgbench_s_transaction_log_gives_each_transactions_own_time(string line, double? ms)
    {
        Assert.Equal(ms, WriterLog.Parse(line));
    }

    /// <summary>
    /// The stage summary keeps only transactions committed in the window, takes each stage's type 7 quantiles over them and
    /// the ack and batch sizes once per batch; the stages table shows it, and "—" for a run without stages.
    /// </summary>
    [Fact]
    public void The_stage_summary_keeps_the_window_s_transactions_counts_each_batch_once_and_renders_a_dash_without_stages()
    {
        var start = new DateTimeOffset(2026, 11, 27, 6, 0, 0, TimeSpan.Zero);
        // Transactions 1…100 committed 1…100 s after start, two to a batch; one before the window and one after.
        var samples = Enumerable.Range(0, 102).Select(i => new FollowStageSample(start.AddSeconds(i), i, 2 * i, 3 * i, 4 * i, AckMs: i / 2, Batch: i / 2, 2, 5)).ToList();
        var stages = new FollowStages("users", samples, Dropped: 7);

        var summary = FollowStageSummary.Of(stages, start.AddSeconds(1), start.AddSeconds(100))!;

        Assert.Equal(100, summary.Transactions);
        Assert.Equal(new StageQuantiles(50.5, 95.05, 99.01), summary[FollowStage.Decode]);
        Assert.Equal(101, summary[FollowStage.Relay].P50, 6);
        Assert.Equal(51, summary.Batches); // batches 0 (its second transaction) … 50 (its first)
        Assert.Equal(25, summary[FollowStage.Ack].P50, 6);
        Assert.Equal(new StageQuantiles(2, 2, 2), summary.BatchTransactions);
        Assert.Equal(7, summary.Dropped);
        Assert.Null(FollowStageSummary.Of(stages, start.AddSeconds(200), start.AddSeconds(300)));
        // In the record each stage keeps the key records made before the one declaration carry (decodeMs … ackMs).
        var json = System.Text.Json.JsonSerializer.Serialize(summary, new System.Text.Json.JsonSerializerOptions(System.Text.Json.JsonSerializerDefaults.Web));
        Assert.Contains("\"decodeMs\":{\"p50\":50.5", json);
        Assert.Contains("\"ackMs\":", json);
        var read = System.Text.Json.JsonSerializer.Deserialize<FollowStageSummary>(json, new System.Text.Json.JsonSerializerOptions(System.Text.Json.JsonSerializerDefaults.Web))!;
        Assert.All(FollowStage.All, stage => Assert.Equal(summary[stage], read[stage]));
        Assert.Equal((summary.Batches, summary.ApplyingMs, summary.FirstApplied), (read.Batches, read.ApplyingMs, read.FirstApplied));

        FollowRun[] runs = [new("users", "NpgsqlReplication", 100, 30) { Stages = summary }, new("users", "native subscription", 100, 30)];
        var md = new StringBuilder();
        FollowTable.Append(md, runs);
        var text = md.ToString();
        Assert.Contains("### Where NpgsqlReplication's lag goes", text);
        Assert.Contains("| users | NpgsqlReplication | 100 | 100 | 50.5 / 95.1 / 99.0 ms | 101.0 / 190.1 / 198.0 ms |", text);
        Assert.Contains("| users | native subscription | 100 | — | — | — | — | — | — | — | — | — |", text);
        var before = new StringBuilder();
        FollowTable.Append(before, [runs[1]]);
        Assert.DoesNotContain("lag goes", before.ToString());
    }

    [Fact]
    public void Pgbench_s_report_gives_the_transactions_and_tps_and_a_rate_maps_to_transactions_per_second()
    {
        const string output = """
            transaction type: sql/follow/users.pgbench.sql
            number of clients: 2
            number of transactions actually processed: 559
            number of failed transactions: 0 (0.000%)
            latency average = 1.337 ms
            rate limit schedule lag: avg 0.120 (max 2.000) ms
            initial connection time = 4.000 ms
            tps = 186.302000 (without initial connection time)
            """;

        Assert.Equal(new FollowLoad.Report(559, 186.302), FollowLoad.Parse(output));
        Assert.Null(FollowLoad.Parse("pgbench: error: connection refused"));
        Assert.Equal(1_000 / 2.76, FollowLoad.TransactionsPerSecond(SyncTable.Users, 1_000), 6);
        Assert.Equal(1_000 / 2.88, FollowLoad.TransactionsPerSecond(SyncTable.Orders, 1_000), 6);
        // Each script's header declares what it needs from the source: orders' key range, users nothing.
        Assert.Equal(["max_id"], SyncDataBenchmark.Runner.Follow.FollowScript.Of(SyncTable.Orders).Defines.Select(d => d.Name));
        Assert.Empty(SyncDataBenchmark.Runner.Follow.FollowScript.Of(SyncTable.Users).Defines);
    }
}
