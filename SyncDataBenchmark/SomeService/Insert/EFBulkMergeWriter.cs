using EFCore.BulkExtensions;
using Microsoft.EntityFrameworkCore;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// EFBulkMerge: EFCore.BulkExtensions with the library's defaults (no BulkConfig), on the run's DbContext, so inside
/// the run's transaction (the library begins none of its own when the context has one). BulkInsertOrUpdate per chunk of
/// <see cref="WriteTarget.BatchSize"/> rows (each call COPYs into a table of its own and upserts from it with INSERT …
/// ON CONFLICT on the primary key), then the rows to delete loaded by key and given to BulkDelete. Not
/// BulkInsertOrUpdateOrDelete: on PostgreSQL (8.0.0) it throws "not yet supported. Use combination of InsertOrUpdate
/// with Read and Delete", so with a full fetch the keys the source did not send are found by reading the target's
/// (docs/approaches.md, "Merges"). A key equal to its CLR default (Guid.Empty, 0) is refused by name before its chunk
/// is handed over: the library would leave the key column out of its INSERT (<see cref="RefuseDefaultKeys"/>).
/// </summary>
[Approach(ApproachKind.Insert, "EFBulkMerge", Batches = true, Library = "EFCore.BulkExtensions",
    Traits = ApproachTraits.GeneratedRows | ApproachTraits.Inserts | ApproachTraits.StoreTypeNamed | ApproachTraits.EFTracked)]
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

        await using var db = await target.OpenDbContextAsync(table, ct);
        return await EFMergeKeys.WithKeyAsync(db, new Merge<TRow>(db, rows, scope, table.Table.Name, target.BatchSize, ct));
    }

    /// <summary>
    /// Refuses a row whose one-column key reads as its CLR default. EFCore.BulkExtensions (8.0.0,
    /// PostgreSqlQueryBuilder.MergeTable) takes a first row whose key's text is "0", Guid.Empty's or "" (TableInfo.TextValueFirstPK,
    /// set for a one-column key only: a composite key is always listed) as "the database generates the keys" and leaves
    /// the key column out of its INSERT … SELECT from the staging table, for every row of the call: with no default on the
    /// column that is "null value in column id", with one the rows would get new keys. No BulkConfig option is meant to
    /// turn that off. Any such row is refused, not only a chunk's first, so the outcome does not depend on batch size or row order.
    /// </summary>
    private static void RefuseDefaultKeys<TRow, TKey>(TRow[] chunk, EFMergeKey<TRow, TKey> key, string table)
        where TRow : class
        where TKey : notnull
    {
        foreach (var row in chunk)
        {
            var value = key.Of(row);
            var only = key.OnlyValue(value);
            if (only is Guid id ? id == Guid.Empty : only is not null && Convert.ToString(only, System.Globalization.CultureInfo.InvariantCulture) is "0" or "")
            {
                throw new InvalidOperationException(
                    $"row {value}: {table}.{key.Column} = {value} cannot be written by EFCore.BulkExtensions' BulkInsertOrUpdate (EFBulkMerge): " +
                    "the library takes a key equal to its type's default as one for the database to generate and leaves the key column out of its INSERT, " +
                    "and no BulkConfig option is meant to keep it (docs/approaches.md, EFBulkMerge). EFBulk (BulkInsert) and the other merges carry it.");
            }
        }
    }

    private sealed record Merge<TRow>(DbContext Db, IAsyncEnumerable<TRow> Rows, MergeScope Scope, string Table, int BatchSize, CancellationToken Ct)
        : EFMergeKeys.IByKey<TRow, long?>
        where TRow : class
    {
        public async Task<long?> RunAsync<TKey>(EFMergeKey<TRow, TKey> key)
            where TKey : notnull
        {
            var sent = Scope.IsWholeTable ? new HashSet<TKey>() : null;
            long merged = 0;
            // The library takes an IEnumerable and enumerates it several times: each chunk is an array.
            await foreach (var chunk in Rows.Chunk(BatchSize).WithCancellation(Ct))
            {
                RefuseDefaultKeys(chunk, key, Table);
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
