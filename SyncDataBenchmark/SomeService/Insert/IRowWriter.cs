using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>A writer fed with rows as they arrive, whatever the fetch approach; written once over the table's row type.</summary>
[WriterKind]
public interface IRowWriter : ITableWriter
{
    /// <param name="table">The rows' table: its binary COPY row, for the writers that write one.</param>
    /// <returns>Rows written, or null when the approach cannot count them (the verification counts anyway).</returns>
    Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class;

    Task<long?> ITableWriter.WriteRowsAsync<TRow>(IAsyncEnumerable<TRow> rows, MergeScope? scope, RowTable<TRow> table, WriteTarget target, CancellationToken ct) =>
        WriteAsync(rows, table, target, ct);
}
