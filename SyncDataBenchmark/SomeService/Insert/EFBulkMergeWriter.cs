using EFCore.BulkExtensions;
using Microsoft.EntityFrameworkCore;
using SomeService.Tables;
using SyncData.Model;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// EFBulkMerge: EFCore.BulkExtensions with the library's defaults (no BulkConfig), on the run's DbContext, so inside
/// the run's transaction (the library begins none of its own when the context has one). BulkInsertOrUpdate per chunk of
/// <see cref="WriteTarget.BatchSize"/> rows (each call COPYs into a table of its own and upserts from it with INSERT …
/// ON CONFLICT on the primary key), then the rows to delete loaded by key and given to BulkDelete. Not
/// BulkInsertOrUpdateOrDelete: on PostgreSQL (8.0.0) it throws "not yet supported. Use combination of InsertOrUpdate
/// with Read and Delete", so with a full fetch the keys the source did not send are found by reading the target's
/// (docs/approaches.md, "Merges").
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
        return await EFMergeKeys.WithKeyAsync(db, new Merge<TRow>(db, rows, scope, target.BatchSize, ct));
    }

    private sealed record Merge<TRow>(SyncDbContext Db, IAsyncEnumerable<TRow> Rows, MergeScope Scope, int BatchSize, CancellationToken Ct)
        : EFMergeKeys.IByKey<TRow, long?>
        where TRow : class
    {
        public async Task<long?> RunAsync<TKey>(EFMergeKey<TRow, TKey> key)
            where TKey : notnull, IParsable<TKey>
        {
            var sent = Scope.IsWholeTable ? new HashSet<TKey>() : null;
            long merged = 0;
            // The library takes an IEnumerable and enumerates it several times: each chunk is an array.
            await foreach (var chunk in Rows.Chunk(BatchSize).WithCancellation(Ct))
            {
                await Db.BulkInsertOrUpdateAsync(chunk, cancellationToken: Ct);
                sent?.UnionWith(chunk.Select(key.Of));
                merged += chunk.Length;
            }

            // BulkDelete takes entities, not keys: the rows are read back first.
            foreach (var chunk in (await key.GoneAsync(Db, Scope, sent, Ct)).Chunk(BatchSize))
            {
                await Db.BulkDeleteAsync(await key.Having(Db.Set<TRow>().AsNoTracking(), [.. chunk]).ToListAsync(Ct), cancellationToken: Ct);
            }

            return merged;
        }
    }
}
