using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyTuned: the NpgsqlCopy writer plus the PostgreSQL manual's "Populating a Database" advice, all inside the
/// run's one transaction (which the runner has already used to truncate the table): drop the primary key, raise
/// maintenance_work_mem for this transaction, COPY … (FORMAT binary, FREEZE), re-add the key (one sorted index build
/// instead of a million index insertions). FREEZE is allowed because the table was truncated in this transaction;
/// the rows are written already frozen, so no later VACUUM has to rewrite them. A failed or unverified run rolls the
/// key's drop back with everything else.
/// The key's name and definition are read from the catalog at run time, so the schema's migrations stay its only source.
/// Costs the run's role ownership of the table (ALTER TABLE), an ACCESS EXCLUSIVE lock until commit, and fails if a
/// foreign key points at this key (README, "The peers and the tuned approach").
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyTuned")]
public sealed class NpgsqlCopyTunedWriter : IRowWriter
{
    private const string CopyInBinaryFreeze = $"COPY {UsersTable.Name} ({UsersTable.Columns}) FROM STDIN (FORMAT binary, FREEZE)";

    /// <summary>Enough to sort a million keys in memory; SET LOCAL ends with the transaction.</summary>
    private const string MaintenanceWorkMem = "1GB";

    public async Task<long?> WriteAsync(IAsyncEnumerable<User> rows, WriteTarget target, CancellationToken ct)
    {
        var primaryKey = await ReadPrimaryKeyAsync(target, ct);
        if (primaryKey is { } dropped)
        {
            await ExecuteAsync(target, $"alter table {UsersTable.Name} drop constraint {dropped.QuotedName}", ct);
        }

        await ExecuteAsync(target, $"set local maintenance_work_mem = '{MaintenanceWorkMem}'", ct);
        var written = await BinaryImport.CopyInAsync(rows, target, CopyInBinaryFreeze, ct);
        if (primaryKey is { } readded)
        {
            await ExecuteAsync(target, $"alter table {UsersTable.Name} add constraint {readded.QuotedName} {readded.Definition}", ct);
        }

        return written;
    }

    private sealed record PrimaryKey(string QuotedName, string Definition);

    private static async Task<PrimaryKey?> ReadPrimaryKeyAsync(WriteTarget target, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(
            "select quote_ident(conname), pg_get_constraintdef(oid) from pg_constraint where conrelid = $1::regclass and contype = 'p'",
            target.Connection, target.Transaction);
        command.Parameters.Add(new() { Value = UsersTable.Name });
        await using var reader = await command.ExecuteReaderAsync(ct);
        return await reader.ReadAsync(ct) ? new PrimaryKey(reader.GetString(0), reader.GetString(1)) : null;
    }

    private static async Task ExecuteAsync(WriteTarget target, string sql, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, target.Connection, target.Transaction) { CommandTimeout = target.CommandTimeoutSeconds };
        await command.ExecuteNonQueryAsync(ct);
    }
}
