using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyTuned: the NpgsqlCopy writer (every row parsed and written through Npgsql's binary importer) inside the
/// manual's "Populating a Database" preparation (<see cref="TunedLoad"/>: primary key dropped and re-added,
/// maintenance_work_mem, COPY … FREEZE, all in the run's one transaction).
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyTuned", Library = "Npgsql's binary importer", Traits = ApproachTraits.GeneratedRows)]
public sealed class NpgsqlCopyTunedWriter : IRowWriter
{
    public Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class =>
        TunedLoad.CopyAsync(target, copyCommand => BinaryImport.CopyInAsync(rows, table, target, copyCommand, ct), ct);
}
