using System.Globalization;
using System.Text.RegularExpressions;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// The write load of a follow run: pgbench with the lab's script for the table (sql/follow/&lt;table&gt;.pgbench.sql),
/// at a fixed rate (-R) for the run's duration (-T), two clients. A rate in rows/s becomes transactions/s over the
/// script's mean rows per transaction, worked out from its mix (the scripts' headers).
/// </summary>
public static partial class FollowLoad
{
    /// <summary>pgbench's clients (and threads): the scripts pick rows at random, so two clients rarely touch the same row.</summary>
    public const int Clients = 2;

    /// <summary>
    /// users: 40% insert 1–5 (mean 3), 40% update 1–5 (3), 20% delete min(1–5, 2) (1.8): 2.76. orders: 50% update 1–5,
    /// 25% insert 1–5, 15% update 1–5, 10% delete min(1–5, 2): 0.9 × 3 + 0.1 × 1.8 = 2.88 (a key range can hold fewer ids).
    /// </summary>
    public static double RowsPerTransaction(SyncTable table) => table == SyncTable.Orders ? 2.88 : 2.76;

    public static double TransactionsPerSecond(SyncTable table, long rowsPerSecond) => rowsPerSecond / RowsPerTransaction(table);

    /// <summary>
    /// pgbench's own report: the transactions it processed and its tps (without the initial connection time); and from
    /// its per-transaction log, each transaction's time from its actual start (WriterLog).
    /// </summary>
    public sealed record Report(long Transactions, double Tps)
    {
        public IReadOnlyList<double> TransactionMs { get; init; } = [];
    }

    public static async Task<Report> RunAsync(string sourceDb, SyncTable table, long rowsPerSecond, double seconds, CancellationToken ct)
    {
        var maxId = table == SyncTable.Orders ? Convert.ToInt64(await Lab.ScalarAsync(sourceDb, "select coalesce(max(id), 1) from orders", ct), CultureInfo.InvariantCulture) : 1;
        var database = new NpgsqlConnectionStringBuilder(sourceDb);
        var logs = Directory.CreateTempSubdirectory("follow-pgbench-");
        try
        {
            var result = await ChildProcess.RunAsync("pgbench",
                ["-n", "-f", Path.Combine(Lab.RepositoryRoot, "sql", "follow", $"{table.Name}.pgbench.sql"), "-D", $"max_id={maxId}",
                 "-R", TransactionsPerSecond(table, rowsPerSecond).ToString("0.###", CultureInfo.InvariantCulture), "-T", seconds.ToString("0", CultureInfo.InvariantCulture),
                 "-c", $"{Clients}", "-j", $"{Clients}", "-l", $"--log-prefix={Path.Combine(logs.FullName, WriterLog.Prefix)}",
                 "-h", database.Host!, "-p", database.Port.ToString(CultureInfo.InvariantCulture), "-U", database.Username!, database.Database!],
                new ChildProcessOptions { KeepAllOutput = true, Environment = new Dictionary<string, string?> { ["PGPASSWORD"] = database.Password } },
                TimeSpan.FromSeconds(seconds + 120), ct);
            return result.ExitCode == 0 && Parse(result.StandardOutput) is { } report
                ? report with { TransactionMs = WriterLog.Read(logs.FullName) }
                : throw new InvalidOperationException($"pgbench exited {result.ExitCode}: {result.RecentOutput}");
        }
        finally
        {
            logs.Delete(recursive: true);
        }
    }

    /// <summary>The two figures from pgbench's report; null when either is missing.</summary>
    public static Report? Parse(string output)
    {
        var transactions = Processed().Match(output);
        var tps = Tps().Match(output);
        return transactions.Success && tps.Success
            ? new Report(long.Parse(transactions.Groups[1].Value, CultureInfo.InvariantCulture), double.Parse(tps.Groups[1].Value, CultureInfo.InvariantCulture))
            : null;
    }

    [GeneratedRegex(@"number of transactions actually processed: (\d+)")]
    private static partial Regex Processed();

    [GeneratedRegex(@"tps = ([0-9.]+) \(without initial connection time\)")]
    private static partial Regex Tps();
}
