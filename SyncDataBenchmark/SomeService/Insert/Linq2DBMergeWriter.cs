using LinqToDB;
using LinqToDB.EntityFrameworkCore;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Linq2DBMerge: linq2db's own Merge API fed from the rows (Merge().Using(rows).OnTargetKey().UpdateWhenMatched()
/// .InsertWhenNotMatched()), through linq2db.EntityFrameworkCore on the run's DbContext, in the run's transaction. linq2db
/// sends an in-memory source as a VALUES list inside the MERGE statement, so the rows go in batches of
/// <see cref="RowsPerMerge"/>, one MERGE each, every value a parameter (b.Parameterize(): by default linq2db inlines them as literals, and its
/// timestamp literal drops the microseconds); UpdateWhenMatched rewrites every matched row, changed or not. linq2db renders a by-source
/// delete only as PostgreSQL 17's WHEN NOT MATCHED BY SOURCE, so the deletes are a statement of their own
/// (<see cref="MergeSql"/>): for a whole table, of the target rows whose key was not received (the keys are kept
/// meanwhile, every key column's value: <see cref="ReceivedKeys{TRow}"/>).
/// </summary>
[Approach(ApproachKind.Insert, "Linq2DBMerge", Library = "linq2db", Traits = ApproachTraits.GeneratedRows | ApproachTraits.Inserts)]
public sealed class Linq2DBMergeWriter : IMergeWriter
{
    /// <summary>
    /// Rows per MERGE, fixed: linq2db's cost per parameterized statement grows faster than its rows (measured here,
    /// users rows: 100 in 6–10 ms, 500 in 58 ms, 1,000 in 155–608 ms, 2,000 in 600–980 ms), so the run's batch size
    /// (1,000 by default) would make this writer several times slower than it need be.
    /// </summary>
    private const int RowsPerMerge = 100;

    public async Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        var sql = await MergeSql.ForAsync(target, ct);
        await using var db = await target.OpenDbContextAsync(table, ct);
        await using var linq = db.CreateLinqToDBConnection(db.Database.CurrentTransaction);
        var destination = linq.GetTable<TRow>();
        var received = scope.IsWholeTable ? new ReceivedKeys<TRow>(db, sql.KeyColumns) : null;
        var batch = new List<TRow>(RowsPerMerge);
        long merged = 0;
        await foreach (var row in rows.WithCancellation(ct))
        {
            batch.Add(row);
            received?.Add(row);
            if (batch.Count == RowsPerMerge)
            {
                merged += await MergeBatchAsync(destination, batch, ct);
                batch.Clear();
            }
        }

        if (batch.Count > 0)
        {
            merged += await MergeBatchAsync(destination, batch, ct);
        }

        await sql.DeleteAsync(scope, received?.Columns() ?? [], ct);
        return merged;
    }

    private static Task<int> MergeBatchAsync<TRow>(ITable<TRow> destination, List<TRow> batch, CancellationToken ct)
        where TRow : class =>
        destination
            .Merge()
            // Parameters, not linq2db's default for an in-memory source (every value inlined as a SQL literal): its
            // DateTime literal drops the microseconds and cannot say ±infinity (MergeWriterTests fail without this).
            .Using(batch.AsQueryable(destination.DataContext, b => b.Parameterize()))
            .OnTargetKey()
            .UpdateWhenMatched()
            .InsertWhenNotMatched()
            .MergeAsync(ct);
}
