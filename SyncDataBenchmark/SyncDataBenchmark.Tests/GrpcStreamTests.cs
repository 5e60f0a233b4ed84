using System.Net;
using Grpc.Core;
using Grpc.Net.Client;
using Npgsql;
using SomeService.Fetch;
using SyncData.Grpc;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>A source large enough that a paused call is still reading its query when a fault is injected.</summary>
public sealed class GrpcStreamLab : LabFixture
{
    public const long Rows = 100_003;
    protected override long SeedRows => Rows;
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
        using var get = await lab.SourceClient.GetAsync(Approach.Of(typeof(SyncData.Shared.Fetches.GrpcStreamFetch)).Route);
        Assert.Equal(HttpStatusCode.BadRequest, get.StatusCode);
        Assert.Contains("server-streaming gRPC call: POST /syncdata.grpcstream.GrpcStreamSource/Users", await get.Content.ReadAsStringAsync());
    }
}
