using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopy: one COPY FROM STDIN (FORMAT binary) through Npgsql's binary importer, each row written as it
/// arrives. Complete() is called only after the last row; an importer disposed without it rolls the COPY back.
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopy", Library = "Npgsql's binary importer", Traits = ApproachTraits.GeneratedRows)]
public sealed class NpgsqlCopyWriter : IRowWriter
{
    public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class =>
        BinaryImport.CopyInAsync(rows, table, target, table.Table.CopyInBinary, ct);
}
