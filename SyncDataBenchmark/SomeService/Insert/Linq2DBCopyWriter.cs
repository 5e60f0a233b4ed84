using LinqToDB.Data;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Linq2DBCopy (beyond the original): the same linq2db call with one option changed, BulkCopyType.ProviderSpecific,
/// which on PostgreSQL is binary COPY through Npgsql's importer: what a team gets by changing one line.
/// </summary>
[Approach(ApproachKind.Insert, "Linq2DBCopy")]
public sealed class Linq2DBCopyWriter : IRowWriter
{
    public Task<long?> WriteAsync(IAsyncEnumerable<User> rows, WriteTarget target, CancellationToken ct) =>
        Linq2DBBulkCopy.CopyAsync(rows, target, BulkCopyType.ProviderSpecific, ct);
}
