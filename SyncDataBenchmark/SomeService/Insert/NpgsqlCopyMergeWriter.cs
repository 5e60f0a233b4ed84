using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyMerge: the rows as they arrive into one binary COPY (Npgsql's importer, each row by its table's mapping,
/// as NpgsqlCopy writes them) into a temporary staging table, then one MERGE into the target and the deletes the scope
/// asks for (<see cref="MergeSql"/>), all in the run's transaction. The staging table has no key or index to maintain;
/// the MERGE rewrites only the rows that differ.
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyMerge", Library = "Npgsql's binary importer", Traits = ApproachTraits.GeneratedRows)]
public sealed class NpgsqlCopyMergeWriter : IMergeWriter
{
    public async Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        var sql = await MergeSql.ForAsync(target, ct);
        await sql.CreateStagingAsync(ct);
        var staged = await BinaryImport.CopyInAsync(rows, table, target, sql.CopyIntoStaging, ct);
        await sql.ApplyStagedAsync(scope, ct);
        // Every staged row is now in the target, inserted, updated or already equal: the count the runner holds against the rows it handed over.
        return staged;
    }
}
