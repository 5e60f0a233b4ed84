using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// A writer that brings a populated target up to date inside the run's transaction: it
/// inserts the rows the target lacks, updates the ones it holds and deletes what <paramref name="scope"/> says, and
/// never empties the table. The runner verifies the whole table and stores the watermark in the same transaction.
/// </summary>
[WriterKind(Merges = true)]
public interface IMergeWriter : ITableWriter
{
    /// <returns>Rows inserted or updated, or null when the approach cannot count them.</returns>
    Task<long?> MergeAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class;

    Task<long?> ITableWriter.WriteRowsAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope? scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct) =>
        MergeAsync(rows, scope ?? throw new ArgumentNullException(nameof(scope), "A merge is fed with its scope."), table, target, ct);
}
