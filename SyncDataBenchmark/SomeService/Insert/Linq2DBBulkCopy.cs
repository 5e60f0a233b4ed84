using LinqToDB.Data;
using LinqToDB.EntityFrameworkCore;
using SomeService.Tables;

namespace SomeService.Insert;

/// <summary>
/// linq2db's bulk copy through linq2db.EntityFrameworkCore on the run's DbContext, as a team whose service is EF-based
/// (the original's was) replaces EFCore.BulkExtensions with it: the context is on the run's connection and enlisted in
/// its transaction, so every statement or COPY linq2db sends is inside that transaction. Rows go in as they arrive
/// (the IAsyncEnumerable overload): no list of all rows is ever held.
/// </summary>
internal static class Linq2DBBulkCopy
{
    /// <param name="bulkCopyType">The one option the two linq2db approaches differ in; null keeps the library's default.</param>
    internal static async Task<long?> CopyAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, BulkCopyType? bulkCopyType, CancellationToken ct)
        where TRow : class
    {
        var options = new BulkCopyOptions
        {
            // No BulkCopyTimeout needed: its INSERTs take the context's command timeout and its COPY the connection's,
            // both the run's (WriteTarget, Program.cs); Linq2DBTests stall the target past it.
            // Not a tuning knob: by default MultipleRows writes each timestamp as a SQL literal formatted
            // 'yyyy-MM-dd HH:mm:ss.fff', silently dropping the microseconds PostgreSQL stores (the lab's verification
            // refuses such a run). As parameters, values go through Npgsql exactly (README, "Linq2DB").
            UseParameters = true,
        };
        if (bulkCopyType is { } type)
        {
            options = options with { BulkCopyType = type };
        }

        await using var db = await target.OpenDbContextAsync(table, ct);
        var copied = await db.BulkCopyAsync(options, rows, ct);
        return copied.RowsCopied;
    }
}
