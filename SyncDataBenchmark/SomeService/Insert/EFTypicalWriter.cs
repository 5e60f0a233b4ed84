using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>EFTypical: AddRange + SaveChanges per batch, change tracker cleared between batches.</summary>
[Approach(ApproachKind.Insert, "EFTypical", Batches = true, Library = "EF Core",
    Traits = ApproachTraits.GeneratedRows | ApproachTraits.Inserts | ApproachTraits.EFTracked)]
public sealed class EFTypicalWriter : IRowWriter
{
    public async Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        // On the run's own connection, so its SaveChanges join the run's single transaction.
        await using var db = await target.OpenDbContextAsync(table, ct);

        long written = 0;
        await foreach (var batch in rows.Chunk(target.BatchSize).WithCancellation(ct))
        {
            db.Set<TRow>().AddRange(batch);
            written += await db.SaveChangesAsync(ct);
            db.ChangeTracker.Clear();
        }

        return written;
    }
}
