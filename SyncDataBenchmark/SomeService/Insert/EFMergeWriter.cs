using Microsoft.EntityFrameworkCore;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// EFMerge: EF Core's ordinary way to bring a table up to date, batch by batch (<see cref="WriteTarget.BatchSize"/>):
/// load the batch's rows that the target holds by key, copy the arriving values onto them (CurrentValues.SetValues:
/// only the columns that differ are updated), Add the others, SaveChanges, clear the change tracker. Deletes: the keys a
/// change fetch reports, or with a full fetch every target key the source did not send (the keys seen are kept, then
/// the target's keys are read and compared); loaded by key, Removed, SaveChanges. All on the run's connection, in its
/// transaction.
/// </summary>
[Approach(ApproachKind.Insert, "EFMerge", Batches = true, Library = "EF Core",
    Traits = ApproachTraits.GeneratedRows | ApproachTraits.Inserts | ApproachTraits.EFTracked)]
public sealed class EFMergeWriter : IMergeWriter
{
    public async Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        await using var db = await target.OpenDbContextAsync(table, ct);
        return await EFMergeKeys.WithKeyAsync(db, new Merge<TRow>(db, rows, scope, target.BatchSize, ct));
    }

    private sealed record Merge<TRow>(DbContext Db, IAsyncEnumerable<TRow> Rows, MergeScope Scope, int BatchSize, CancellationToken Ct)
        : EFMergeKeys.IByKey<TRow, long?>
        where TRow : class
    {
        public async Task<long?> RunAsync<TKey>(EFMergeKey<TRow, TKey> key)
            where TKey : notnull
        {
            // A full fetch: what it did not send is what the source no longer has.
            var sent = Scope.IsWholeTable ? new HashSet<TKey>() : null;
            long merged = 0;
            await foreach (var batch in Rows.Chunk(BatchSize).WithCancellation(Ct))
            {
                await UpsertAsync(key, batch);
                sent?.UnionWith(batch.Select(key.Of));
                merged += batch.Length;
            }

            foreach (var batch in (await key.GoneAsync(Db, Scope, sent, Ct)).Chunk(BatchSize))
            {
                Db.Set<TRow>().RemoveRange(await key.Having(Db.Set<TRow>(), [.. batch]).ToListAsync(Ct));
                await SaveAsync();
            }

            return merged;
        }

        private async Task UpsertAsync<TKey>(EFMergeKey<TRow, TKey> key, TRow[] batch)
            where TKey : notnull
        {
            var held = await key.Having(Db.Set<TRow>(), [.. batch.Select(key.Of)]).ToDictionaryAsync(key.Of, Ct);
            foreach (var row in batch)
            {
                if (held.TryGetValue(key.Of(row), out var current))
                {
                    Db.Entry(current).CurrentValues.SetValues(row);
                }
                else
                {
                    Db.Set<TRow>().Add(row);
                }
            }

            await SaveAsync();
        }

        private async Task SaveAsync()
        {
            await Db.SaveChangesAsync(Ct);
            Db.ChangeTracker.Clear();
        }
    }
}
