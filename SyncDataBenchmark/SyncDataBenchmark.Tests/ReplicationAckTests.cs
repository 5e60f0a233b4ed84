using System.Net;
using System.Text.Json;
using NpgsqlTypes;
using SyncData.Postgres;
using SyncData.Shared;
using SyncData.Shared.Fetches;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Acknowledgements racing a stream's start at SyncDataSource. Npgsql's status update, sent after the replication
/// connection entered streaming but before PostgreSQL answered START_REPLICATION, fails and keeps its feedback lock, so
/// the stream's later confirmations wait forever: seen as a 500 and then a follower failing on a busy machine.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ReplicationAckTests(InProcessLab lab)
{
    private static readonly string StreamRoute = ApproachInfo.RouteOf(typeof(NpgsqlReplicationFetch));

    /// <summary>Streams started (each resuming the slot) with acknowledgements sent throughout their start.</summary>
    private const int Starts = 15;

    /// <summary>How long any answer or frame may take: a limit for a hang, not a measurement.</summary>
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Acknowledgements_sent_while_a_stream_starts_are_never_a_500_and_a_later_one_confirms()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_ack_race", SyncTable.Default, 100);
        using var source = pair.CreateSourceClient();
        var consistentPoint = await ReadFirstCopyAsync(source, pair.Slot);
        for (var start = 0; start < Starts; start++)
        {
            // The consistent point acknowledged over and over: a stream's first confirmation goes to Npgsql (later ones of
            // the same LSN stop at the session), whenever it lands in the stream's start.
            using var acking = new CancellationTokenSource();
            var answers = new List<HttpStatusCode>();
            var acks = Task.Run(async () =>
            {
                while (!acking.IsCancellationRequested)
                {
                    answers.Add(await AckAsync(source, pair.Slot, consistentPoint));
                }
            });
            using var life = new CancellationTokenSource();
            using var stream = await OpenAsync(source, pair.Slot, consistentPoint, life.Token);
            var later = await ReadPastAsync(stream, NpgsqlLogSequenceNumber.Parse(consistentPoint));
            await acking.CancelAsync();
            await acks;

            Assert.DoesNotContain(HttpStatusCode.InternalServerError, answers);
            // A position the stream sent since, confirmed to PostgreSQL at once: it must not wait on a lock an earlier status update kept.
            Assert.Equal(HttpStatusCode.NoContent, await AckAsync(source, pair.Slot, later));
            await life.CancelAsync();
        }
    }

    /// <summary>Frames until one carries an LSN past <paramref name="lsn"/> (a heartbeat's, every half second): that LSN.</summary>
    private static async Task<string> ReadPastAsync(StreamReader stream, NpgsqlLogSequenceNumber lsn)
    {
        while (true)
        {
            var frame = await ReadFrameAsync(stream);
            if (frame.Lsn is { } sent && NpgsqlLogSequenceNumber.Parse(sent) > lsn)
            {
                return sent;
            }
        }
    }

    private static async Task<string> ReadFirstCopyAsync(HttpClient source, string slot)
    {
        using var life = new CancellationTokenSource();
        using var stream = await OpenAsync(source, slot, from: null, life.Token);
        try
        {
            while (true)
            {
                var frame = await ReadFrameAsync(stream);
                if (frame.Op == ChangeFrame.Copied)
                {
                    return frame.Lsn!;
                }
            }
        }
        finally
        {
            await life.CancelAsync();
        }
    }

    /// <summary>
    /// The stream of <paramref name="slot"/>; cancelling <paramref name="life"/> aborts its request, as a follower that goes
    /// away (the in-process server ends a stream when its request is aborted, not when the body is disposed).
    /// </summary>
    private static async Task<StreamReader> OpenAsync(HttpClient source, string slot, string? from, CancellationToken life)
    {
        var route = SourceRoutes.InTable(StreamRoute, SyncTable.Default.Name) + $"?{ReplicationRoutes.Slot}={slot}" + (from is null ? "" : $"&{ReplicationRoutes.From}={from}");
        var response = await source.GetAsync(route, HttpCompletionOption.ResponseHeadersRead, life).WaitAsync(Limit);
        if (!response.IsSuccessStatusCode)
        {
            Assert.Fail($"GET /{route}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        }

        return new StreamReader(await response.Content.ReadAsStreamAsync());
    }

    private static async Task<ChangeFrame> ReadFrameAsync(StreamReader stream)
    {
        using var limit = new CancellationTokenSource(Limit);
        var line = await stream.ReadLineAsync(limit.Token) ?? throw new InvalidOperationException("The replication stream ended.");
        var frame = JsonSerializer.Deserialize(line, SyncJsonContext.Default.ChangeFrame)!;
        Assert.True(frame.Op is not (ChangeFrame.Failed or ChangeFrame.Broken), $"The stream failed: {frame.Error}");
        return frame;
    }

    /// <summary>POST ack: its answer, or a failure if none comes within <see cref="Limit"/> (a confirmation waiting on a kept lock).</summary>
    private static async Task<HttpStatusCode> AckAsync(HttpClient source, string slot, string lsn)
    {
        using var limit = new CancellationTokenSource(Limit);
        var route = SourceRoutes.InTable(ReplicationRoutes.Ack, SyncTable.Default.Name) + $"?{ReplicationRoutes.Slot}={slot}&lsn={Uri.EscapeDataString(lsn)}";
        using var response = await source.PostAsync(route, null, limit.Token);
        return response.StatusCode;
    }
}
