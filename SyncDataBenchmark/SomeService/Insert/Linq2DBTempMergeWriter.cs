using LinqToDB;
using LinqToDB.Data;
using LinqToDB.EntityFrameworkCore;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Linq2DBTempMerge: what linq2db's maintainers recommend for an upsert of many rows (linq2db.EntityFrameworkCore #215,
/// linq2db #4841): BulkCopy the rows into a temp table (CreateTempTable), then Merge from it into the target, through
/// linq2db.EntityFrameworkCore on the run's DbContext, so every statement is in the run's transaction. The bulk copy is
/// BulkCopyType.ProviderSpecific, binary COPY (the default, MultipleRows, would be Linq2DB's multi-row INSERTs). Merge's
/// UpdateWhenMatched rewrites every matched row, changed or not. linq2db renders a by-source delete only as PostgreSQL
/// 17's WHEN NOT MATCHED BY SOURCE, so the deletes are a statement of their own (<see cref="MergeSql"/>).
/// </summary>
[Approach(ApproachKind.Insert, "Linq2DBTempMerge", Library = "linq2db", Traits = ApproachTraits.GeneratedRows | ApproachTraits.Inserts | ApproachTraits.StoreTypeNamed)]
public sealed class Linq2DBTempMergeWriter : IMergeWriter
{
    public async Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        var sql = await MergeSql.ForAsync(target, ct);
        await using var db = await target.OpenDbContextAsync(table, ct);
        await using var linq = db.CreateLinqToDBConnection(db.Database.CurrentTransaction);
        // Created inside the run's transaction: a rollback removes it; on success it is dropped below (TempTable's dispose,
        // which is not in a finally: in a failed transaction its DROP would fail and hide the failure's cause).
        var staging = await linq.CreateTempTableAsync<TRow>(tableName: sql.Staging, cancellationToken: ct);
        await staging.BulkCopyAsync(new BulkCopyOptions { BulkCopyType = BulkCopyType.ProviderSpecific }, rows, ct);
        var merged = await linq.GetTable<TRow>()
            .Merge()
            .Using(staging)
            .OnTargetKey()
            .UpdateWhenMatched()
            .InsertWhenNotMatched()
            .MergeAsync(ct);
        await sql.DeleteAsync(scope, ct);
        await staging.DisposeAsync();
        return merged;
    }
}
