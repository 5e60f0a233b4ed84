using System.Data;
using System.Text.RegularExpressions;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.Options;
using Npgsql;
using SyncData.Shared;

namespace SyncDataSource.Runs;

/// <summary>
/// One consistent read per run, as pgcopydb reads every part of a copy under one exported snapshot. The run's begin
/// opens a REPEATABLE READ transaction and exports its snapshot, held on its own connection for the run; every request
/// of the run (named by <see cref="SourceRoutes.RunHeader"/>, <see cref="RunsApi.RunOf"/>), the checksum included,
/// reads in a REPEATABLE READ transaction of its own that imports it. The run's end ends it; so does
/// <see cref="RunSnapshotOptions.IdleTimeout"/> with no request in flight (<see cref="Expired"/>), so a SomeService that
/// went away leaves no transaction open. Requests without a run read as before, each in its own transaction.
/// </summary>
public sealed partial class RunSnapshots : IAsyncDisposable
{
    private static readonly string ExportSql = Embedded("export-snapshot.sql");
    private static readonly string ImportSql = Embedded("import-snapshot.sql");

    private readonly NpgsqlDataSource _dataSource;
    private readonly ILogger<RunSnapshots> _logger;
    private readonly TimeSpan _idle;
    private readonly Timer _sweep;
    private readonly Lock _lock = new();
    private readonly Dictionary<Guid, Held> _held = [];

    // Runs whose snapshot ended, and why: a late request of one must fail, not silently open a second snapshot.
    private const int EndedKept = 256;
    private readonly Dictionary<Guid, string> _ended = [];
    private readonly Queue<Guid> _endedOrder = new();

    public RunSnapshots(NpgsqlDataSource dataSource, IOptions<RunSnapshotOptions> options, ILogger<RunSnapshots> logger)
    {
        (_dataSource, _logger, _idle) = (dataSource, logger, options.Value.IdleTimeout);
        var every = TimeSpan.FromTicks(Math.Min(_idle.Ticks / 4, TimeSpan.TicksPerSecond * 5));
        _sweep = new Timer(_ => _ = SweepAsync(), null, every, every);
    }

    /// <summary>A run with no request in flight for <see cref="RunSnapshotOptions.IdleTimeout"/> ended: its consumer went away.</summary>
    public event Action<Guid, string>? Expired;

    /// <summary>Opens <paramref name="run"/>'s snapshot, held until <see cref="EndAsync"/> or the idle timeout.</summary>
    public async Task<SourceSnapshot> OpenAsync(Guid run)
    {
        Held held;
        lock (_lock)
        {
            if (_held.ContainsKey(run) || _ended.ContainsKey(run))
            {
                throw RunConflictException.Again(run);
            }

            // Not the request's token: the snapshot outlives the request that opened it.
            _held[run] = held = new Held(run, OpenCoreAsync(run));
        }

        try
        {
            return (await held.Opening).Snapshot;
        }
        catch
        {
            // A snapshot that could not be opened (the database was down) is not the run's.
            lock (_lock)
            {
                _held.Remove(run);
            }

            throw;
        }
    }

    /// <summary>The snapshot of the run this request names, or null for a request of no run. Dispose the lease when the request is done.</summary>
    public Lease? Acquire(HttpRequest request)
    {
        if (RunsApi.RunOf(request) is not { } run)
        {
            return null;
        }

        Held held;
        lock (_lock)
        {
            if (_ended.TryGetValue(run, out var why))
            {
                throw RunConflictException.Ended(run, why);
            }

            if (!_held.TryGetValue(run, out held!) || !held.Opening.IsCompletedSuccessfully)
            {
                throw RunConflictException.NeverBegun(run);
            }

            held.InFlight++;
        }

        return new Lease(this, held, held.Opening.Result.Snapshot);
    }

    /// <summary>
    /// The run's consumer is still at work between requests (a writer that buffered every row, a target that waits on a
    /// lock): the snapshot's idle clock starts again. Refused as a request of the run would be when it is not open.
    /// </summary>
    public void KeepAlive(Guid run)
    {
        lock (_lock)
        {
            if (_ended.TryGetValue(run, out var why))
            {
                throw RunConflictException.Ended(run, why);
            }

            if (!_held.TryGetValue(run, out var held) || !held.Opening.IsCompletedSuccessfully)
            {
                throw RunConflictException.NeverBegun(run);
            }

            held.LastUsed = Environment.TickCount64;
        }
    }

    /// <summary>
    /// The run ended, or one of its requests failed: its snapshot ends (the holding transaction rolls back), and later
    /// requests of the run are refused with <paramref name="why"/>. Returns the snapshot when one was held.
    /// </summary>
    public async Task<SourceSnapshot?> EndAsync(Guid run, string why)
    {
        Held? held;
        lock (_lock)
        {
            if (_held.Remove(run, out held))
            {
                MarkEnded(run, why);
            }
        }

        return held is null ? null : await CloseAsync(held);
    }

    public async ValueTask DisposeAsync()
    {
        await _sweep.DisposeAsync();
        List<Held> all;
        lock (_lock)
        {
            all = [.. _held.Values];
            _held.Clear();
        }

        foreach (var held in all)
        {
            await CloseAsync(held);
        }
    }

    private async Task<Opened> OpenCoreAsync(Guid run)
    {
        var connection = await _dataSource.OpenConnectionAsync();
        try
        {
            var transaction = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead);
            await using var command = new NpgsqlCommand(ExportSql, connection, transaction);
            await using var reader = await command.ExecuteReaderAsync();
            await reader.ReadAsync();
            var snapshot = new SourceSnapshot(reader.GetString(0), reader.GetString(1), reader.GetString(2), reader.GetString(3));
            if (!SnapshotId().IsMatch(snapshot.Id))
            {
                throw new InvalidOperationException($"pg_export_snapshot() returned '{snapshot.Id}', not a snapshot id.");
            }

            _logger.LogInformation("Run {Run} reads snapshot {Snapshot} (xmin {Xmin}, LSN {Lsn})", run, snapshot.Id, snapshot.Xmin, snapshot.Lsn);
            return new Opened(connection, transaction, snapshot);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    private void Release(Held held)
    {
        lock (_lock)
        {
            held.InFlight--;
            held.LastUsed = Environment.TickCount64;
        }
    }

    private async Task SweepAsync()
    {
        List<Held> idle;
        lock (_lock)
        {
            var now = Environment.TickCount64;
            idle = [.. _held.Values.Where(h => h.InFlight == 0 && now - h.LastUsed > _idle.TotalMilliseconds)];
            foreach (var held in idle)
            {
                _held.Remove(held.Run);
                MarkEnded(held.Run, $"no request of the run for {_idle.TotalSeconds:0.#} s");
            }
        }

        foreach (var held in idle)
        {
            _logger.LogWarning("Run {Run} ended: no request for {Idle}", held.Run, _idle);
            Expired?.Invoke(held.Run, $"no request of the run for {_idle.TotalSeconds:0.#} s");
            await CloseAsync(held);
        }
    }

    private async Task<SourceSnapshot?> CloseAsync(Held held)
    {
        Opened opened;
        try
        {
            opened = await held.Opening;
        }
        catch
        {
            return null; // never opened: nothing to close
        }

        try
        {
            // Read only: ending it is a rollback.
            await opened.Transaction.RollbackAsync();
        }
        catch (Exception ex)
        {
            _logger.LogWarning(ex, "Ending run {Run}'s snapshot failed (a broken connection ends its transaction anyway)", held.Run);
        }
        finally
        {
            await opened.Connection.DisposeAsync();
        }

        return opened.Snapshot;
    }

    private void MarkEnded(Guid run, string why)
    {
        _ended[run] = why;
        _endedOrder.Enqueue(run);
        if (_endedOrder.Count > EndedKept)
        {
            _ended.Remove(_endedOrder.Dequeue());
        }
    }

    private static string Embedded(string name) => EmbeddedText.Read(typeof(RunSnapshots).Assembly, name).Trim();

    // PostgreSQL's format: "%08X-%08X-%d". Checked because SET TRANSACTION SNAPSHOT takes a literal, not a parameter.
    [GeneratedRegex("^[0-9A-F]+-[0-9A-F]+-[0-9]+$")]
    private static partial Regex SnapshotId();

    internal sealed record Opened(NpgsqlConnection Connection, NpgsqlTransaction Transaction, SourceSnapshot Snapshot);

    internal sealed class Held(Guid run, Task<Opened> opening)
    {
        public Guid Run { get; } = run;
        public Task<Opened> Opening { get; } = opening;
        public int InFlight { get; set; }
        public long LastUsed { get; set; } = Environment.TickCount64;
    }

    /// <summary>A request's hold on its run's snapshot: the snapshot cannot end idle while a request reads in it.</summary>
    public sealed class Lease : IAsyncDisposable
    {
        private readonly RunSnapshots _owner;
        private readonly Held _held;
        private int _released;

        internal Lease(RunSnapshots owner, Held held, SourceSnapshot snapshot) => (_owner, _held, Snapshot) = (owner, held, snapshot);

        public SourceSnapshot Snapshot { get; }

        private string Import => ImportSql.Replace("{0}", Snapshot.Id, StringComparison.Ordinal);

        /// <summary>A REPEATABLE READ transaction on <paramref name="connection"/> that reads the run's snapshot.</summary>
        public async Task<NpgsqlTransaction> BeginAsync(NpgsqlConnection connection, CancellationToken ct)
        {
            var transaction = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead, ct);
            await using var command = new NpgsqlCommand(Import, connection, transaction);
            await command.ExecuteNonQueryAsync(ct);
            return transaction;
        }

        /// <summary>The same for an EF context: its queries then read the run's snapshot.</summary>
        public async Task<IDbContextTransaction> BeginAsync(DatabaseFacade database, CancellationToken ct)
        {
            var transaction = await database.BeginTransactionAsync(IsolationLevel.RepeatableRead, ct);
#pragma warning disable EF1002 // The id is PostgreSQL's own, checked for shape: SET TRANSACTION SNAPSHOT takes no parameters.
            await database.ExecuteSqlRawAsync(Import, ct);
#pragma warning restore EF1002
            return transaction;
        }

        public ValueTask DisposeAsync()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0)
            {
                _owner.Release(_held);
            }

            return ValueTask.CompletedTask;
        }
    }
}
