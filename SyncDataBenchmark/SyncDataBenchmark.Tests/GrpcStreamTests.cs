using System.Net;
using Grpc.Core;
using Grpc.Net.Client;
using SomeService.Fetch;
using SyncData.Grpc;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>A source large enough that a paused call is still reading its query when a fault is injected.</summary>
public sealed class GrpcStreamLab : LabFixture
{
    public const long Rows = 300_003;
    protected override long SeedRows => Rows;

    /// <summary>Terminates the source's backends running GrpcStream's query while it runs; returns how many.</summary>
    public async Task<int> TerminateStreamingBackendsAsync() =>
        Convert.ToInt32(await Lab.ScalarAsync(Postgres.ConnectionString("postgres"), """
            select count(pg_terminate_backend(pid)) from pg_stat_activity
            where datname = $1 and state = 'active' and pid <> pg_backend_pid() and query ilike 'select id, name, patronymic, surname, created_at, is_active from users%'
            """, [Lab.SourceDatabase]));

    /// <summary>SomeService's GrpcStream consumer reading the source as a read of no run, with its own idle timeout.</summary>
    public IAsyncEnumerable<User> Consume(TimeSpan idleTimeout, CancellationToken ct = default)
    {
        var options = Microsoft.Extensions.Options.Options.Create(new SomeService.Sync.SyncOptions { SourceIdleTimeout = idleTimeout });
        var request = new SomeService.Sync.SyncRequest(new FetchApproach("GrpcStream"), new InsertApproach("NpgsqlCopy"), 1000, 1000);
        return new GrpcStreamConsumer().ReadAsync(new ConsumerRun(new SourceClient(SourceClient, options), request, id: null), global::SomeService.Tables.UsersRowTable.Instance, ct);
    }
}

[CollectionDefinition(Name)]
public sealed class GrpcStreamCollection : ICollectionFixture<GrpcStreamLab>
{
    public const string Name = "grpc-stream";
}

/// <summary>
/// What GrpcStream adds to the fetches' guarantees (the rest — every insert, compression, timestamps, faults, one
/// snapshot — is in the tests that enumerate every fetch): HTTP/2 on the source's one cleartext port, the run named in
/// the call, a failure after rows went out ended by a status that names it, and cancellation reaching the source.
/// </summary>
[Collection(GrpcStreamCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class GrpcStreamTests(GrpcStreamLab lab)
{
    private static GrpcChannel Direct(Uri source) => GrpcChannel.ForAddress(source, new GrpcChannelOptions { MaxReceiveMessageSize = null });

    [Fact]
    public async Task The_source_serves_the_call_over_HTTP2_with_prior_knowledge_on_its_one_cleartext_port()
    {
        using var channel = Direct(lab.Source.BaseAddress);
        using var call = new GrpcStreamSource.GrpcStreamSourceClient(channel).Users(new UsersRequest());
        long rows = 0;
        var largest = 0;
        await foreach (var batch in call.ResponseStream.ReadAllAsync())
        {
            rows += batch.Rows.Count;
            largest = Math.Max(largest, batch.Rows.Count);
        }

        Assert.Equal(GrpcStreamLab.Rows, rows);
        Assert.Equal(UsersMessages.BatchRows, largest);
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);

        // The same port answers HTTP/1.1: a GET at the fetch's route is told how to make the call.
        using var get = await lab.SourceClient.GetAsync(ApproachInfo.RouteOf(typeof(SyncData.Shared.Fetches.GrpcStreamFetch)));
        Assert.Equal(HttpStatusCode.BadRequest, get.StatusCode);
        Assert.Contains("server-streaming gRPC call: POST /syncdata.grpcstream.GrpcStreamSource/Users", await get.Content.ReadAsStringAsync());
    }

    /// <summary>Every "Now listening on" address but the service's own is said, in the start-up log, to be the internal pipeline.</summary>
    [Fact]
    public async Task The_start_up_log_says_what_the_second_listening_address_is()
    {
        await lab.StartSourceAsync();
        var log = lab.Source.RecentOutput;
        var listening = System.Text.RegularExpressions.Regex.Matches(log, @"Now listening on: http://(\S+)").Select(m => m.Groups[1].Value.TrimEnd('/')).ToList();
        var own = lab.Source.BaseAddress.Authority;
        Assert.Contains(own, listening);
        var others = listening.Where(address => address != own).ToList();
        Assert.Single(others);
        Assert.Contains($"http://{others[0]} is internal, not an address to call", log);
        Assert.DoesNotContain($"http://{own} is internal", log);
    }

    [Fact]
    public async Task A_call_names_its_run_and_one_of_a_run_never_begun_is_refused()
    {
        var run = Guid.NewGuid();
        using var channel = Direct(lab.Source.BaseAddress);
        using var call = new GrpcStreamSource.GrpcStreamSourceClient(channel).Users(new UsersRequest(), new Metadata { { SourceRoutes.RunHeader, run.ToString() } });

        var refused = await Assert.ThrowsAsync<RpcException>(() => call.ResponseStream.MoveNext());
        Assert.Equal(StatusCode.FailedPrecondition, refused.StatusCode);
        Assert.Contains($"Run {run} was never begun at SyncDataSource", refused.Status.Detail);
    }

    /// <summary>gRPC answers HTTP 200 whatever happens, so the source itself must end the run of a call that failed.</summary>
    [Fact]
    public async Task A_call_that_fails_mid_stream_ends_its_run_at_the_source()
    {
        var run = Guid.NewGuid();
        using (var begin = await lab.SourceClient.PostAsync(SourceRoutes.Run(run), null))
        {
            Assert.True(begin.IsSuccessStatusCode, await begin.Content.ReadAsStringAsync());
        }

        using (var channel = Direct(lab.Source.BaseAddress))
        using (var cancel = new CancellationTokenSource())
        {
            using var call = new GrpcStreamSource.GrpcStreamSourceClient(channel).Users(
                new UsersRequest(), new Metadata { { SourceRoutes.RunHeader, run.ToString() } }, cancellationToken: cancel.Token);
            Assert.True(await call.ResponseStream.MoveNext());
            await cancel.CancelAsync();
        }

        // The run's later requests are refused: its snapshot ended with the call (within a moment: the source notices the reset).
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        while (true)
        {
            using var checksum = new HttpRequestMessage(HttpMethod.Get, SourceRoutes.Checksum) { Headers = { { SourceRoutes.RunHeader, run.ToString() } } };
            using var answer = await lab.SourceClient.SendAsync(checksum);
            if (answer.StatusCode == HttpStatusCode.Conflict)
            {
                Assert.Contains("a request of the run failed", await answer.Content.ReadAsStringAsync());
                break;
            }

            Assert.True(DateTime.UtcNow < deadline, $"the run's checksum still answered {(int)answer.StatusCode} after its call failed");
            await Task.Delay(200);
        }

        using var _ = await lab.SourceClient.DeleteAsync(SourceRoutes.Run(run));
    }

    /// <summary>
    /// The source's query dies after rows went out: the consumer gets the status the source ended the call with, naming
    /// the cause and the rows so far, never a stream that merely stops (which a client of a bare byte stream could take for its end).
    /// </summary>
    [Fact]
    public async Task A_source_failure_mid_stream_is_a_named_status_not_a_short_table()
    {
        await using var rows = lab.Consume(TimeSpan.FromSeconds(60)).GetAsyncEnumerator();
        Assert.True(await rows.MoveNextAsync());
        // Not read on: HTTP/2's flow control holds the source's writes, so its query is still running.
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (await lab.TerminateStreamingBackendsAsync() == 0)
        {
            Assert.True(DateTime.UtcNow < deadline, "GrpcStream's query was not running on the source");
            await Task.Delay(50);
        }

        long read = 1;
        var failure = await Assert.ThrowsAsync<SourceStreamException>(async () =>
        {
            while (await rows.MoveNextAsync())
            {
                read++;
            }
        });
        Assert.True(read < GrpcStreamLab.Rows, $"all {read:N0} rows arrived");
        // The terminated backend's own error, or the broken connection it left (which of the two Npgsql meets first varies).
        Assert.Matches(@"^SyncDataSource ended the GrpcStream call with Unavailable after [\d,]+ rows: This service's database is unreachable; retry once it is back\. \((PostgresException: 57P01: terminating connection due to administrator command|NpgsqlException: .+ ← EndOfStreamException: )", failure.Message);
    }

    [Fact]
    public async Task A_source_that_stops_sending_fails_the_read_after_the_idle_timeout()
    {
        var idle = TimeSpan.FromSeconds(2);
        // Bounded here too: without the idle timeout the read would wait for ever (and end cancelled, failing the test).
        using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await using var rows = lab.Consume(idle, bound.Token).GetAsyncEnumerator();
        Assert.True(await rows.MoveNextAsync());
        await FaultLab.SignalAsync(lab.Source, "STOP");
        try
        {
            var failure = await Assert.ThrowsAsync<SourceStreamException>(() => DrainAsync(rows));
            Assert.Contains("SyncDataSource sent nothing for 2 s after", failure.Message);
            Assert.Contains("(idle timeout)", failure.Message);
        }
        finally
        {
            await FaultLab.SignalAsync(lab.Source, "CONT");
        }
    }

    [Fact]
    public async Task Cancelling_the_read_is_a_cancellation_and_frees_the_source_query()
    {
        using var cancel = new CancellationTokenSource();
        await using var rows = lab.Consume(TimeSpan.FromSeconds(60), cancel.Token).GetAsyncEnumerator();
        Assert.True(await rows.MoveNextAsync());
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => DrainAsync(rows));
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        while (await StreamingQueriesAsync() > 0)
        {
            Assert.True(DateTime.UtcNow < deadline, "the source still runs GrpcStream's query after the read was cancelled");
            await Task.Delay(100);
        }
    }

    private async Task<long> StreamingQueriesAsync() =>
        Convert.ToInt64(await Lab.ScalarAsync(lab.Postgres.ConnectionString("postgres"), """
            select count(*) from pg_stat_activity
            where datname = $1 and state = 'active' and query ilike 'select id, name, patronymic, surname, created_at, is_active from users%'
            """, [Lab.SourceDatabase]));

    private static async Task DrainAsync(IAsyncEnumerator<User> rows)
    {
        while (await rows.MoveNextAsync())
        {
        }
    }
}
