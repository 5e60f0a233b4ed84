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
        await foreach (var frame in FramesAsync(body, table.Name, ct))
        {
            yield return frame;
        }
    }

    /// <summary>
    /// The frames of a stream's <paramref name="body"/>, each as soon as its line has arrived (a commit frame stamped with
    /// its read time); the body's end or a failure frame is a <see cref="SourceStreamException"/>.
    /// </summary>
    internal static async IAsyncEnumerable<ChangeFrame> FramesAsync(Stream body, string table, [EnumeratorCancellation] CancellationToken ct)
    {
        // The frames parsed straight from the body's UTF-8, one top-level value a line: no line string decoded to UTF-16
        // and transcoded back for the parser (a drain reads tens of thousands of frames a second).
        await using var frames = JsonSerializer.DeserializeAsyncEnumerable(body, SyncJsonContext.Default.ChangeFrame, topLevelValues: true, ct).GetAsyncEnumerator(ct);
        while (true)
        {
            ChangeFrame? frame;
            try
            {
                frame = await frames.MoveNextAsync() ? frames.Current : null;
            }
            catch (Exception ex) when (ex is IOException or HttpRequestException or JsonException)
            {
                // A frame cut off mid-line is the body breaking too.
                throw new SourceStreamException($"The replication stream of {table} broke: {ex.Message}", ex is JsonException ? new IOException(ex.Message, ex) : ex);
            }

            if (frame is null || frame.Op is ChangeFrame.Failed or ChangeFrame.Broken)
            {
                // A body that ended, or a database that went away, is a broken stream the follower opens again (an IOException inside).
                throw new SourceStreamException(frame?.Error is { } error
                    ? $"SyncDataSource's replication stream of {table} {(frame.Op == ChangeFrame.Broken ? "broke" : "failed")}: {error}"
                    : $"SyncDataSource's replication stream of {table} ended (a stream ends only when the source stops or fails).",
                    frame is null ? new IOException("The stream's body ended.") : frame.Op == ChangeFrame.Broken ? new IOException("The source's database went away.") : null);
            }

            // A commit's read time ends its relay stage and starts its queue stage (the follower's channel, its batch).
            yield return frame.Op == ChangeFrame.Commit ? frame with { ReadAt = DateTimeOffset.UtcNow } : frame;
        }
    }
}
