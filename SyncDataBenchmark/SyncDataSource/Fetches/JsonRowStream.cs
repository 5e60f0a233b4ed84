using System.Text.Json.Serialization.Metadata;
using Microsoft.EntityFrameworkCore;
using SyncData.Shared;
using SyncDataSource.Runs;

namespace SyncDataSource.Fetches;

/// <summary>The JSON fetches' one-request stream: a query's rows as one JSON array, written as EF reads them.</summary>
internal static class JsonRowStream
{
    /// <summary>
    /// EFStream: one query, rows serialised to a JSON array as EF reads them (bounded memory). If a row cannot be read
    /// after the headers went out, the body ends with <see cref="SourceFailure.Marker"/> and the reason, so the consumer
    /// sees a broken array and knows why.
    /// </summary>
    internal static Task WriteAsync<TRow>(Func<SendableDbContext, IQueryable<TRow>> rows, HttpContext http, SendableDbContext db, RunSnapshots snapshots, CancellationToken ct)
        where TRow : class =>
        WriteAsync(rows, http, db, snapshots, null, ct);

    /// <summary>
    /// The same over any context (a described table's generated one, <see cref="Tables.DescribedSourceRows{TRow}"/>), its
    /// rows written with <paramref name="json"/> when given: the query must be guarded as <see cref="SendableDbContext"/>'s are.
    /// </summary>
    internal static async Task WriteAsync<TRow, TContext>(Func<TContext, IQueryable<TRow>> rows, HttpContext http, TContext db, RunSnapshots snapshots,
        JsonTypeInfo<IAsyncEnumerable<TRow>>? json, CancellationToken ct)
        where TRow : class
        where TContext : DbContext
    {
        await using var lease = snapshots.Acquire(http.Request);
        await using var transaction = lease is null ? null : await lease.BeginAsync(db.Database, ct);
        try
        {
            // ASP.NET Core's JSON options, as the pages: the same resolver and the same (relaxed) escaping, so every JSON
            // fetch writes non-ASCII text as UTF-8, not as \u escapes, and their bytes on the wire compare like with like.
            var stream = rows(db).AsAsyncEnumerable();
            await (json is null ? http.Response.WriteAsJsonAsync(stream, cancellationToken: ct) : http.Response.WriteAsJsonAsync(stream, json, cancellationToken: ct));
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            var why = SendableDbContext.Unsendable(ex) ?? throw ex.Rethrown();
            if (!http.Response.HasStarted)
            {
                http.Response.Clear();
                await FetchApi.Unsendable(why).ExecuteAsync(http);
                return;
            }

            // Ended, not aborted: an abort can overtake the bytes just written, and the marker already makes the body
            // invalid JSON, so no consumer can take it for a complete array. Written through BodyWriter, where the
            // serializer wrote: under response compression that writer buffers over Body, and a marker written to
            // Body directly could go out before rows still in its buffer.
            await http.Response.BodyWriter.WriteAsync(System.Text.Encoding.UTF8.GetBytes("\n" + SourceFailure.Marker + why + "\n"), ct);
        }
    }
}
