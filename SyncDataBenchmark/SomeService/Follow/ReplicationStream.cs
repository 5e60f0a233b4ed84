using System.Runtime.CompilerServices;
using System.Text.Json;
using SomeService.Fetch;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>NpgsqlReplication's stream as the follower reads it: the source's <see cref="ChangeFrame"/>s, one JSON object a line.</summary>
internal static class ReplicationStream
{
    /// <summary>
    /// The frames of <paramref name="table"/>'s stream on <paramref name="slot"/>, from <paramref name="from"/> (the
    /// target's stored LSN; null: the slot made anew and a first copy), decoded through <paramref name="publication"/> (a
    /// user's own; null: the slot's own, made by the source). The stream ends only by failing: a frame that
    /// says the source failed (its status was 200 already), or the body ending, is a <see cref="SourceStreamException"/>.
    /// </summary>
    public static async IAsyncEnumerable<ChangeFrame> ReadFramesAsync(SourceClient client, SyncTable table, string slot, string? publication, string? from,
        [EnumeratorCancellation] CancellationToken ct)
    {
        var route = SourceRoutes.InTable(ReplicationRoutes.Stream, table.Name) + $"?{ReplicationRoutes.Slot}={slot}" + (from is null ? "" : $"&{ReplicationRoutes.From}={from}")
            + (publication is null ? "" : $"&{ReplicationRoutes.Publication}={publication}");
        using var response = await client.OpenReplicationAsync(route, ct);
        await using var body = await response.Content.ReadAsStreamAsync(ct);
        using var lines = new StreamReader(body);
        while (true)
        {
            string? line;
            try
            {
                line = await lines.ReadLineAsync(ct);
            }
            catch (Exception ex) when (ex is IOException or HttpRequestException)
            {
                throw new SourceStreamException($"The replication stream of {table.Name} broke: {ex.Message}", ex);
            }

            var frame = line is null ? null : JsonSerializer.Deserialize(line, SyncJsonContext.Default.ChangeFrame);
            if (frame is null || frame.Op is ChangeFrame.Failed or ChangeFrame.Broken)
            {
                // A body that ended, or a database that went away, is a broken stream the follower opens again (an IOException inside).
                throw new SourceStreamException(frame?.Error is { } error
                    ? $"SyncDataSource's replication stream of {table.Name} {(frame.Op == ChangeFrame.Broken ? "broke" : "failed")}: {error}"
                    : $"SyncDataSource's replication stream of {table.Name} ended (a stream ends only when the source stops or fails).",
                    frame is null ? new IOException("The stream's body ended.") : frame.Op == ChangeFrame.Broken ? new IOException("The source's database went away.") : null);
            }

            // A commit's read time ends its relay stage and starts its queue stage (the follower's channel, its batch).
            yield return frame.Op == ChangeFrame.Commit ? frame with { ReadAt = DateTimeOffset.UtcNow } : frame;
        }
    }
}
