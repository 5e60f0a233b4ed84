using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Linq2DB: linq2db's BulkCopyAsync with the library's defaults, as the original ran it ("the free alternative to the
/// paid bulk extensions"; it tuned neither batch sizes nor transactions). For PostgreSQL the default BulkCopyType is
/// MultipleRows: multi-row INSERT … VALUES statements (README, "Linq2DB").
/// </summary>
[Approach(ApproachKind.Insert, "Linq2DB", Library = "linq2db", Traits = ApproachTraits.GeneratedRows | ApproachTraits.Inserts)]
public sealed class Linq2DBWriter : IRowWriter
{
    public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class =>
        Linq2DBBulkCopy.CopyAsync(rows, table, target, bulkCopyType: null, ct);
}
