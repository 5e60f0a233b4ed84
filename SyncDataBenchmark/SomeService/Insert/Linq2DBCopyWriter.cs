using LinqToDB.Data;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Linq2DBCopy (beyond the original): the same linq2db call with one option changed, BulkCopyType.ProviderSpecific,
/// which on PostgreSQL is binary COPY through Npgsql's importer: what a team gets by changing one line.
/// </summary>
[Approach(ApproachKind.Insert, "Linq2DBCopy", Library = "linq2db", Traits = ApproachTraits.GeneratedRows | ApproachTraits.StoreTypeNamed)]
public sealed class Linq2DBCopyWriter : IRowWriter
{
    public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class =>
        Linq2DBBulkCopy.CopyAsync(rows, table, target, BulkCopyType.ProviderSpecific, ct);
}
