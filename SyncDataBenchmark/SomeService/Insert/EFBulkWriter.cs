using EFCore.BulkExtensions;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// EFBulk: EFCore.BulkExtensions' BulkInsertAsync with its defaults, as the original used it (it tuned neither batch
/// size nor transactions). One call per chunk of <see cref="WriteTarget.BatchSize"/> rows; on PostgreSQL each call is
/// one binary COPY on the context's connection, which is the run's, so it is inside the run's transaction.
/// </summary>
[Approach(ApproachKind.Insert, "EFBulk", Batches = true, Library = "EFCore.BulkExtensions",
    Traits = ApproachTraits.GeneratedRows | ApproachTraits.StoreTypeNamed | ApproachTraits.EFTracked)]
public sealed class EFBulkWriter : IRowWriter
{
    public async Task<long?> WriteAsync<TRow>(IAsyncEnumerable<TRow> rows, RowTable<TRow> table, WriteTarget target, CancellationToken ct)
        where TRow : class
    {
        // The library opens its COPY with BeginBinaryImport and never sets the importer's timeout (BulkCopyTimeout is
        // ignored on PostgreSQL), so the COPY gets the connection's Command Timeout. SomeService gives its target
        // connections that timeout (Program.cs); if they ever differ, fail loudly rather than be cut at Npgsql's 30 s.
        if (target.Connection.CommandTimeout != target.CommandTimeoutSeconds)
        {
            throw new InvalidOperationException(
                $"EFBulk's COPY would time out after the connection's Command Timeout ({target.Connection.CommandTimeout} s), not the configured {target.CommandTimeoutSeconds} s.");
        }

        // The library COPYs on the context's connection, which is the run's, so every COPY is inside the run's transaction.
        await using var db = await target.OpenDbContextAsync(table, ct);

        long written = 0;
        // Chunk: BulkInsertAsync takes an IEnumerable, not an IAsyncEnumerable, and enumerates it several times, so
        // each chunk is an array; only one chunk of rows is held at a time.
        await foreach (var chunk in rows.Chunk(target.BatchSize).WithCancellation(ct))
        {
            await db.BulkInsertAsync(chunk, cancellationToken: ct);
            written += chunk.Length;
        }

        return written;
    }
}
