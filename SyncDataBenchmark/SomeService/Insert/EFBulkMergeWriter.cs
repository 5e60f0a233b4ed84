using EFCore.BulkExtensions;
using Microsoft.EntityFrameworkCore;
using SomeService.Tables;
using SyncData.Model;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// EFBulkMerge: EFCore.BulkExtensions' upserts with the library's defaults (no BulkConfig), on the run's DbContext, so
/// inside the run's transaction (the library begins none of its own when the context has one). A full fetch: one
/// BulkInsertOrUpdateOrDelete of every row, since it deletes whatever the list it is given lacks: the whole table is
/// held in memory at once. A change fetch: BulkInsertOrUpdate per chunk of <see cref="WriteTarget.BatchSize"/> rows,
/// then the reported keys' rows loaded and given to BulkDelete. Each call COPYs into a table of its own and merges from
/// it with INSERT … ON CONFLICT on the primary key (docs/approaches.md, "Merges").
/// </summary>
[Approach(ApproachKind.Insert, "EFBulkMerge", Batches = true, Merges = true)]
public sealed class EFBulkMergeWriter : IMergeWriter
{
    public async Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        // As EFBulk: the library never sets its COPY's timeout (BulkCopyTimeout is ignored on PostgreSQL), so the COPY
        // gets the connection's Command Timeout; fail loudly if it is not the configured one.
        if (target.Connection.CommandTimeout != target.CommandTimeoutSeconds)
        {
            throw new InvalidOperationException(
                $"EFBulkMerge's COPY would time out after the connection's Command Timeout ({target.Connection.CommandTimeout} s), not the configured {target.CommandTimeoutSeconds} s.");
        }

        await using var db = await target.OpenDbContextAsync(ct);
        if (scope.IsWholeTable)
        {
            var all = await rows.ToListAsync(ct);
            await db.BulkInsertOrUpdateOrDeleteAsync(all, cancellationToken: ct);
            return all.Count;
        }

        long merged = 0;
        // BulkInsertOrUpdateAsync takes an IEnumerable and enumerates it several times: each chunk is an array.
        await foreach (var chunk in rows.Chunk(target.BatchSize).WithCancellation(ct))
        {
            await db.BulkInsertOrUpdateAsync(chunk, cancellationToken: ct);
            merged += chunk.Length;
        }

        await EFMergeKeys.WithKeyAsync(db, new Delete<TRow>(db, scope.DeletedKeys!, target.BatchSize, ct));
        return merged;
    }

    /// <summary>The reported keys' rows, loaded (BulkDelete takes entities) and deleted, a chunk at a time.</summary>
    private sealed record Delete<TRow>(SyncDbContext Db, IReadOnlyList<string> Keys, int BatchSize, CancellationToken Ct)
        : EFMergeKeys.IByKey<TRow, long>
        where TRow : class
    {
        public async Task<long> RunAsync<TKey>(EFMergeKey<TRow, TKey> key)
            where TKey : notnull, IParsable<TKey>
        {
            long deleted = 0;
            foreach (var chunk in EFMergeKey<TRow, TKey>.Parse(Keys).Chunk(BatchSize))
            {
                var held = await key.Having(Db.Set<TRow>().AsNoTracking(), [.. chunk]).ToListAsync(Ct);
                await Db.BulkDeleteAsync(held, cancellationToken: Ct);
                deleted += held.Count;
            }

            return deleted;
        }
    }
}
