using System.CommandLine;
using System.Text;
using SyncData.Postgres;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Follow;
using SyncDataBenchmark.Runner.Report;
using SyncData.Shared;
using Xunit;

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

    [Fact]
    public void Without_follow_there_is_no_follow_matrix_and_the_rates_default()
    {
        var (options, parse) = Parse();

        Assert.Null(options.Settings(parse).FollowSeconds);
        Assert.Equal(BenchSettings.DefaultWriteRates, options.Settings(parse).WriteRates);
    }

    [Theory]
    [InlineData("--write-rate 100", "--write-rate is the write load of --follow")]
    [InlineData("--follow 5s --cases NpgsqlCopy:*", "cannot honour --cases")]
    [InlineData("--follow 5s --peers psql-binary --compression gzip", "cannot honour --peers, --compression")]
    [InlineData("--follow 5s --changed 1%", "cannot honour --changed")]
    [InlineData("--follow 5s --rows 1000,2000", "--follow runs at one size")]
    [InlineData("--follow 5s --source-connection Host=x --table public.t", "--follow with --source-connection would install on YOUR database a publication")]
    [InlineData("--follow 0s", "--follow: '0s' is not valid")]
    [InlineData("--follow 5x", "--follow: '5x' is not valid")]
    [InlineData("--follow 5s --write-rate 0", "--write-rate: '0' is not valid")]
    [InlineData("--outage 30s", "--outage stops a --follow mechanism for a while")]
    [InlineData("--follow 5s --outage 0s", "--outage: '0s' is not valid")]
    public void Follow_refuses_what_it_cannot_honour(string args, string message)
    {
        var errors = BenchOptions.Errors(Parse(args.Split(' ')).Parse);

        Assert.Contains(errors, e => e.Contains(message, StringComparison.Ordinal));
    }

    /// <summary>Type 7 quantiles of 1…100 (Perfolizer's SimpleQuantileEstimator): p50 50.5, p95 95.05, p99 99.01.</summary>
    [Fact]
    public void The_lag_summary_is_the_samples_quantiles_and_maximum()
    {
        var lags = Enumerable.Range(1, 100).Select(i => (double)i).Reverse().ToList();

        var summary = FollowLagSummary.Of(lags)!;

        Assert.Equal(100, summary.Count);
        Assert.Equal(50.5, summary.P50Ms, 6);
        Assert.Equal(95.05, summary.P95Ms, 6);
        Assert.Equal(99.01, summary.P99Ms, 6);
        Assert.Equal(100, summary.MaxMs);
        Assert.Null(FollowLagSummary.Of([]));
    }

    [Fact]
    public void The_keeping_a_copy_fresh_table_has_a_row_per_run_and_names_a_failure_and_a_leftover()
    {
        FollowRun[] runs =
        [
            new("users", "NpgsqlReplication", 1_000, 60)
            {
                TransactionsPerSecondAsked = 362.3, PgbenchTps = 361.9, Verified = true, Lag = new FollowLagSummary(40_000, 12.5, 48, 130, 410),
                RowsAppliedPerSecond = 998, CatchUpMs = 35, SourceRowsWritten = 60_000, ChangeLogTriggers = false,
                Writers = new WriterTransactionSummary(21_000, 0.734, 0.721, 0.748, 3.2),
                Cost = new FollowCost(new FollowServiceCost(1_500, 60_000_000, 60_300_000, 1_600_000, 1), null, null, "SyncDataSource never began this run"),
            },
            new("orders", "native subscription", 10_000, 60) { TransactionsPerSecondAsked = 3472.2, Cost = FollowCost.NoProcess, Error = "the target did not equal the source", LeftBehind = "slot syncdata_follow" },
        ];
        var md = new StringBuilder();

        FollowTable.Append(md, runs);

        var text = md.ToString();
        Assert.Contains("## Keeping a copy fresh", text);
        Assert.Contains("| Table | Mechanism | Write rate (rows/s) | pgbench tps (asked) | Lag p50 | Lag p95 | Lag p99 | Lag max | n | Rows applied/s | Catch-up | Verified |", text);
        Assert.Contains("| users | NpgsqlReplication | 1,000 | 361.9 (362.3) | 12.5 ms | 48 ms | 130 ms | 410 ms | 40,000 | 998 | 35 ms | yes |", text);
        Assert.Contains("| orders | native subscription | 10,000 | n/a (3,472.2) | n/a | n/a | n/a | n/a | 0 | n/a | n/a | **no**: the target did not equal the source; **left behind**: slot syncdata_follow |", text);
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
        Assert.Equal(new StageQuantiles(50.5, 95.05, 99.01), summary.DecodeMs);
        Assert.Equal(101, summary.RelayMs.P50, 6);
        Assert.Equal(51, summary.Batches); // batches 0 (its second transaction) … 50 (its first)
        Assert.Equal(25, summary.AckMs.P50, 6);
        Assert.Equal(new StageQuantiles(2, 2, 2), summary.BatchTransactions);
        Assert.Equal(7, summary.Dropped);
        Assert.Null(FollowStageSummary.Of(stages, start.AddSeconds(200), start.AddSeconds(300)));

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
