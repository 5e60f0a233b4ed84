using SomeService.Tables;

namespace SomeService.Insert;

/// <summary>
/// Rows into one COPY FROM STDIN (FORMAT binary) through Npgsql's binary importer, each row written as it arrives by
/// its table's mapping (<see cref="RowTable{TRow}.Write"/>); shared by the writers that differ only in what happens
/// around the COPY. Complete() is called only after the last row: an importer disposed without it rolls the COPY back.
/// </summary>
internal static class BinaryImport
{
    /// <param name="copyCommand">A COPY … FROM STDIN (FORMAT binary …) of the table's columns (SyncTable.Columns), e.g. with FREEZE.</param>
    internal static async Task<long?> CopyInAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, string copyCommand, CancellationToken ct)
        where TRow : class
    {
        await using var importer = await target.Connection.BeginBinaryImportAsync(copyCommand, ct);
        importer.Timeout = TimeSpan.FromSeconds(target.CommandTimeoutSeconds);
        await foreach (var row in rows.WithCancellation(ct))
        {
            table.Write(importer, row);
        }

        return (long)await importer.CompleteAsync(ct);
    }
}
