namespace SomeService.Insert;

/// <summary>
/// The source's binary COPY body relayed byte for byte into one COPY FROM STDIN (FORMAT binary …), parsing nothing;
/// shared by the writers that differ only in what happens around the COPY. Npgsql's raw COPY stream completes (commits
/// the COPY) on Dispose, so any failure must Cancel it first; the run's transaction and its verification before commit
/// guard the rest.
/// </summary>
internal static class RawBinaryCopy
{
    /// <param name="copyCommand">A COPY … FROM STDIN (FORMAT binary …) of the target table's columns (SyncTable.Columns), e.g. with FREEZE.</param>
    internal static async Task RelayAsync(Stream binaryCopy, WriteTarget target, string copyCommand, CancellationToken ct)
    {
        var connection = target.Connection;
        await using var copy = await connection.BeginRawBinaryCopyAsync(copyCommand, ct);
        try
        {
            await binaryCopy.CopyToAsync(copy, ct);
        }
        catch
        {
            // Cancel so Dispose does not complete a partial COPY; if the connection is already gone, so is the COPY.
            if (!connection.FullState.HasFlag(System.Data.ConnectionState.Broken))
            {
                await copy.CancelAsync();
            }

            throw;
        }
    }
}
