using System.Net;
using Microsoft.Extensions.Options;
using NpgsqlTypes;
using SomeService.Fetch;
using SomeService.Follow;
using SomeService.Sync;
using SyncData.Postgres;
using SyncData.Shared;
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
    /// <summary>Streams started (each resuming the slot) with acknowledgements sent throughout their start.</summary>
    private const int Starts = 15;

    /// <summary>
    /// How long any answer or frame may take: a limit for a hang (a confirmation waiting on a kept lock waits for ever), not
    /// a measurement, so far past what a loaded machine needs: 30 s was once reached on a 2-core machine at load 18.
    /// </summary>
    private static readonly TimeSpan Limit = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task Acknowledgements_sent_while_a_stream_starts_are_never_a_500_and_a_later_one_confirms()
    {
        await using var pair = await FollowedPair.CreateAsync(lab, "repl_ack_race", SyncTable.Default, 100);
        using var http = pair.CreateSourceClient();
        // The stream read as the follower reads it (a failure frame is a SourceStreamException naming it).
        var source = new SourceClient(http, Options.Create(new SyncOptions()));
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
                    answers.Add(await AckAsync(http, pair.Slot, consistentPoint));
                }
            });
            var resumed = NpgsqlLogSequenceNumber.Parse(consistentPoint);
            // Read until a frame (a heartbeat's, every half second) carries an LSN past it; the stream still open:
            await ReadUntilAsync(source, pair.Slot, consistentPoint, frame => frame.Lsn is { } sent && NpgsqlLogSequenceNumber.Parse(sent) > resumed, async later =>
            {
                await acking.CancelAsync();
                await acks;

                Assert.DoesNotContain(HttpStatusCode.InternalServerError, answers);
                // A position the stream sent since, confirmed to PostgreSQL at once: it must not wait on a lock an earlier status update kept.
                Assert.Equal(HttpStatusCode.NoContent, await AckAsync(http, pair.Slot, later));
            });
        }
    }

    /// <summary>The slot made anew and its first copy read: the consistent point.</summary>
    private static async Task<string> ReadFirstCopyAsync(SourceClient source, string slot)
    {
        string? consistentPoint = null;
        await ReadUntilAsync(source, slot, from: null, frame => frame.Op == ChangeFrame.Copied, lsn => Task.FromResult(consistentPoint = lsn));
        return consistentPoint!;
    }

    /// <summary>
    /// Reads the slot's stream until a frame is <paramref name="wanted"/> and calls <paramref name="open"/> with its LSN;
    /// then aborts the stream's request, as a follower that goes away (the in-process server ends a stream when its
    /// request is aborted, not when the body is disposed).
    /// </summary>
    private static async Task ReadUntilAsync(SourceClient source, string slot, string? from, Func<ChangeFrame, bool> wanted, Func<string, Task> open)
    {
        using var life = new CancellationTokenSource();
        await using var frames = ReplicationStream.ReadFramesAsync(source, SyncTable.Default, slot, null, from, life.Token).GetAsyncEnumerator(life.Token);
        try
        {
            do
            {
                Assert.True(await frames.MoveNextAsync().AsTask().WaitAsync(Limit), "The replication stream ended.");
            }
            while (!wanted(frames.Current));

            await open(frames.Current.Lsn!);
        }
        finally
        {
            await life.CancelAsync();
        }
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
