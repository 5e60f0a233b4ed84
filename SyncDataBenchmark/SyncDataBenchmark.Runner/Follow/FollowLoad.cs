using System.Globalization;
using System.Text.RegularExpressions;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// The write load of a follow run: pgbench with the lab's script for the table (<see cref="FollowScript"/>), open-loop at
/// a fixed rate (-R) for the run's duration (-T), two clients; or unthrottled for a drain's backlog (-t). A rate in rows/s becomes transactions/s over the script's mean
/// rows per transaction, which its header declares.
/// </summary>
public static partial class FollowLoad
{
    /// <summary>pgbench's clients (and threads): the scripts pick rows at random, so two clients rarely touch the same row.</summary>
    public const int Clients = 2;

    public static double TransactionsPerSecond(SyncTable table, long rowsPerSecond) => FollowScript.Of(table).TransactionsPerSecond(rowsPerSecond);

    /// <summary>
    /// pgbench's own report: the transactions it processed and its tps (without the initial connection time); and from
    /// its per-transaction log, each transaction's time from its actual start (WriterLog).
    /// </summary>
    public sealed record Report(long Transactions, double Tps)
    {
        public IReadOnlyList<double> TransactionMs { get; init; } = [];
    }

    /// <summary>pgbench open-loop at <paramref name="rowsPerSecond"/> (-R: transactions start on their schedule, however late the last) for <paramref name="seconds"/>.</summary>
    public static async Task<Report> RunAsync(string sourceDb, SyncTable table, long rowsPerSecond, double seconds, CancellationToken ct)
    {
        var script = FollowScript.Of(table);
        var logs = Directory.CreateTempSubdirectory("follow-pgbench-");
        try
        {
            var report = await PgbenchAsync(sourceDb, script,
                ["-R", script.TransactionsPerSecond(rowsPerSecond).ToString("0.###", CultureInfo.InvariantCulture), "-T", seconds.ToString("0", CultureInfo.InvariantCulture),
                 "-l", $"--log-prefix={Path.Combine(logs.FullName, WriterLog.Prefix)}"],
                TimeSpan.FromSeconds(seconds + 120), ct);
            return report with { TransactionMs = WriterLog.Read(logs.FullName) };
        }
        finally
        {
            logs.Delete(recursive: true);
        }
    }

    /// <summary>
    /// A drain's backlog: the same script unthrottled, as many transactions as make about <paramref name="changes"/>
    /// rows (the script's mean; the rows actually written are counted by the caller).
    /// </summary>
    public static Task<Report> BacklogAsync(string sourceDb, SyncTable table, long changes, CancellationToken ct)
    {
        var script = FollowScript.Of(table);
        var perClient = (long)Math.Ceiling(changes / script.RowsPerTransaction / Clients);
        return PgbenchAsync(sourceDb, script, ["-t", perClient.ToString(CultureInfo.InvariantCulture)], TimeSpan.FromMinutes(30), ct);
    }

    private static async Task<Report> PgbenchAsync(string sourceDb, FollowScript script, string[] pacing, TimeSpan bound, CancellationToken ct)
    {
        var defines = await script.DefineArgumentsAsync(sourceDb, ct);
        var database = new NpgsqlConnectionStringBuilder(sourceDb);
        var result = await ChildProcess.RunAsync("pgbench",
            ["-n", "-f", script.Path, .. defines, .. pacing, "-c", $"{Clients}", "-j", $"{Clients}",
             "-h", database.Host!, "-p", database.Port.ToString(CultureInfo.InvariantCulture), "-U", database.Username!, database.Database!],
            new ChildProcessOptions { KeepAllOutput = true, Environment = new Dictionary<string, string?> { ["PGPASSWORD"] = database.Password } },
            bound, ct);
        return result.ExitCode == 0 && Parse(result.StandardOutput) is { } report
            ? report
            : throw new InvalidOperationException($"pgbench exited {result.ExitCode}: {result.RecentOutput}");
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
