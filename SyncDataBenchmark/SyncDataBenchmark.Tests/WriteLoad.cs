using Npgsql;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Concurrent writes to the source's users while a test follows it: small transactions of inserts, updates and deletes
/// (Fixtures/replication-*.sql), each row version named after its load and transaction, until stopped.
/// </summary>
public sealed class WriteLoad : IAsyncDisposable
{
    private static readonly string[] Statements = [.. new[] { "insert", "update", "delete" }
        .Select(op => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Fixtures", $"replication-{op}.sql")))];

    /// <summary>Loads made so far in this process: each names its versions after itself too, so two loads of one test never write the same name.</summary>
    private static int _loads;

    private readonly int _load = Interlocked.Increment(ref _loads);
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _writing;

    public WriteLoad(string sourceDb, TimeSpan pause)
    {
        _writing = Task.Run(() => WriteAsync(sourceDb, pause, _stop.Token));
    }

    /// <summary>Transactions committed so far.</summary>
    public int Transactions { get; private set; }

    private async Task WriteAsync(string sourceDb, TimeSpan pause, CancellationToken ct)
    {
        var random = new Random(51);
        await using var connection = new NpgsqlConnection(sourceDb);
        await connection.OpenAsync(ct);
        while (!ct.IsCancellationRequested)
        {
            // Inserts outweigh deletes, so the table never empties; several statements in one transaction now and then.
            await using var transaction = await connection.BeginTransactionAsync(ct);
            for (var i = random.Next(1, 3); i > 0; i--)
            {
                await using var command = new NpgsqlCommand(Statements[random.Next(10) switch { < 4 => 0, < 8 => 1, _ => 2 }], connection, transaction);
                command.Parameters.Add(new() { Value = $"{_load}.{Transactions}" });
                command.Parameters.Add(new() { Value = random.Next(1, 6) });
                await command.ExecuteNonQueryAsync(ct);
            }

            await transaction.CommitAsync(ct);
            Transactions++;
            await Task.Delay(pause, ct).ContinueWith(_ => { }, TaskScheduler.Default);
        }
    }

    /// <summary>Stops the writes once the current transaction has committed (or rolled back).</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await _writing;
        }
        catch (OperationCanceledException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _stop.Dispose();
    }
}
