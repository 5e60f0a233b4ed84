using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using SomeService;
using SomeService.Fetch;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>The trigger's c=: every fetch moves the table intact under gzip and brotli, and really compressed on the wire.</summary>
[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class CompressionTests(MatrixLab lab)
{
    /// <summary>Every fetch into NpgsqlCopy (rows parsed) under each compression, and the raw relay (bytes passed on) under the two codings.</summary>
    public static TheoryData<string, string, string> Cases()
    {
        var data = new TheoryData<string, string, string>();
        foreach (var fetch in Consumers.Fetches)
        {
            foreach (var compression in BodyCompression.Names)
            {
                data.Add(fetch, "NpgsqlCopy", compression);
            }
        }

        data.Add("NpgsqlCopy", "NpgsqlCopyRaw", BodyCompression.Gzip);
        data.Add("NpgsqlCopy", "NpgsqlCopyRaw", BodyCompression.Brotli);
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task Every_fetch_verifies_under_each_compression_with_fewer_bytes_on_the_wire(string fetch, string insert, string compression)
    {
        var source = await Lab.ReadChecksumAsync(lab.SourceDb);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, source);
        var run = await lab.SyncAsync(fetch, insert, compression: compression.ToUpperInvariant());

        Assert.True(run.Verified, $"{fetch} × {insert} [{compression}]: {run.Status} {run.Error}");
        Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.Equal(compression, run.Compression);
        // A floor that shows the body was counted: ArrowStream, the densest body, carries a users row in ~49 bytes,
        // protobuf (GrpcStream) in ~50, COPY in ~64.
        Assert.True(run.BodyBytes > MatrixLab.Rows * 40, $"body bytes {run.BodyBytes}");
        if (compression == BodyCompression.None)
        {
            Assert.Equal(run.BodyBytes, run.WireBytes);
        }
        else
        {
            // Really compressed: a run that asked for a coding and got the plain body fails (SourceClient), and the wire shows it.
            Assert.True(run.WireBytes < run.BodyBytes * 0.8, $"{compression}: {run.WireBytes:N0} bytes on the wire for {run.BodyBytes:N0} decoded");
        }

        // Both services' CPU time is in the record beside the compression.
        Assert.True(run.SomeService?.CpuTimeMs > 0, "SomeService CPU time");
        Assert.True(run.SyncDataSource?.CpuTimeMs > 0, "SyncDataSource CPU time");
    }
}

/// <summary>A failure inside SyncDataSource after the headers went out is still named under compression.</summary>
[Collection(UnrepresentableCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class CompressionFailureTests(UnrepresentableLab lab)
{
    public static TheoryData<string, string> FetchesAndCodings()
    {
        var data = new TheoryData<string, string>();
        foreach (var fetch in Consumers.Fetches)
        {
            data.Add(fetch, BodyCompression.Gzip);
            data.Add(fetch, BodyCompression.Brotli);
        }

        return data;
    }

    [Theory]
    [InlineData("gzip")]
    [InlineData("br")]
    public async Task The_stream_failure_marker_arrives_compressed_after_the_rows(string coding)
    {
        var id = await lab.PlantCreatedAtAsync("0001-01-01 00:00:00");
        try
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, "users/stream");
            request.Headers.AcceptEncoding.Add(new(coding));
            using var response = await lab.SourceClient.SendAsync(request);

            // 200: the rows before the bad one went out, compressed, before it was met; the marker follows them.
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(coding, Assert.Single(response.Content.Headers.ContentEncoding));
            await using var raw = await response.Content.ReadAsStreamAsync();
            await using Stream decoded = coding == "gzip"
                ? new System.IO.Compression.GZipStream(raw, System.IO.Compression.CompressionMode.Decompress)
                : new System.IO.Compression.BrotliStream(raw, System.IO.Compression.CompressionMode.Decompress);
            var body = await new StreamReader(decoded).ReadToEndAsync();
            Assert.StartsWith("[{", body);
            Assert.Contains(SourceFailure.Marker, body);
            Assert.Contains($"row {id}: created_at = 0001-01-01 00:00:00 ", body);
            // …and ends the body: no row still buffered in a writer comes out after it.
            Assert.True(body.LastIndexOf(SourceFailure.Marker, StringComparison.Ordinal) > body.LastIndexOf('}'), "rows after the marker");
        }
        finally
        {
            await lab.PlantCreatedAtAsync("2025-01-01 00:00:00", id);
        }
    }

    [Theory]
    [MemberData(nameof(FetchesAndCodings))]
    public async Task A_row_the_source_cannot_send_fails_the_compressed_run_by_name_and_leaves_the_target(string fetch, string compression)
    {
        var id = await lab.PlantCreatedAtAsync("0001-01-01 00:00:00");
        try
        {
            var source = await Lab.ReadChecksumAsync(lab.SourceDb);
            await Lab.MakeTargetDifferAsync(lab.TargetDb, source);
            var before = await Lab.ReadChecksumAsync(lab.TargetDb);
            var run = await lab.SyncAsync(fetch, "NpgsqlCopy", pageSize: 50, compression: compression);

            Assert.True(run.Status == RunStatus.Failed, $"{fetch} [{compression}]: {run.Status}");
            Assert.Equal(compression, run.Compression);
            Assert.True(run.Error?.Contains($"row {id}: created_at = 0001-01-01 00:00:00 ") == true, $"{fetch} [{compression}]: {run.Error}");
            Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
        }
        finally
        {
            await lab.PlantCreatedAtAsync("2025-01-01 00:00:00", id);
        }
    }

}

/// <summary>A source killed while a compressed stream is held mid-way: the rows flowed before the end, and the run fails named.</summary>
[Collection(FaultCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class CompressionFaultTests(FaultLab lab) : IAsyncLifetime
{
    public async Task InitializeAsync()
    {
        lab.Proxy.Reset();
        await lab.CancelLeftoverRunsAsync();
    }

    public Task DisposeAsync()
    {
        lab.Proxy.Reset();
        return Task.CompletedTask;
    }

    [Theory]
    [InlineData("EFStream", "gzip")]
    [InlineData("NpgsqlCopy", "brotli")]
    public async Task Source_database_backend_terminated_mid_compressed_stream_fails_the_run(string fetch, string compression)
    {
        var before = await lab.MakeTargetDifferAsync();
        // Mid-stream means the target is already writing rows while the source's query still runs: the compressed
        // stream is not held back to its end.
        var run = await lab.StartAndWaitMidStreamAsync(fetch, "NpgsqlCopy", compression);
        await lab.WaitForBackendAsync(Lab.SourceDatabase, FaultLab.SourceStreaming, TimeSpan.FromSeconds(30));
        Assert.True(await lab.TerminateBackendsAsync(Lab.SourceDatabase, FaultLab.SourceStreaming) >= 1, "no streaming source backend to terminate:\n" + await lab.DescribeActivityAsync());
        lab.Proxy.Reset();

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Equal(compression, finished.Compression);
        Assert.Contains("SyncDataSource", finished.Error);
        Assert.True(finished.WireBytes > 0, "bytes arrived before the failure");
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
        await lab.AssertHealthyAndSyncingAsync();
    }
}

/// <summary>An answer in another coding than the run asked for fails the run, named (in process: a handler drops Accept-Encoding).</summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class CompressionMismatchTests(InProcessLab lab)
{
    [Fact]
    public async Task A_plain_answer_to_a_compressed_run_fails_it_as_the_wrong_encoding()
    {
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source).WithWebHostBuilder(b => b.ConfigureServices(services =>
            services.AddHttpClient<SourceClient>().AddHttpMessageHandler(() => new DropAcceptEncoding())));
        using var client = someService.CreateClient();
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        var before = await Lab.ReadChecksumAsync(lab.TargetDb);

        using var response = await new SomeServiceClient(client).TriggerAsync("NpgsqlCopy", "NpgsqlCopy", wait: true, compression: BodyCompression.Gzip);
        var run = System.Text.Json.JsonSerializer.Deserialize(await response.Content.ReadAsStringAsync(), SyncJsonContext.Default.RunResult)!;

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("another encoding than asked", run.Error);
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
    }

    private sealed class DropAcceptEncoding : DelegatingHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            request.Headers.AcceptEncoding.Clear();
            return base.SendAsync(request, cancellationToken);
        }
    }
}

/// <summary>The runner's --compression: parsed, validated, and each case × coding a case of its own.</summary>
[Trait("Tier", "Fast")]
public sealed class CompressionOptionTests
{
    private static readonly string Out = Path.Combine(Path.GetTempPath(), "syncdata-compression-option-test");

    private static System.CommandLine.ParseResult Parse(params string[] args) => Parse(new SyncDataBenchmark.Runner.BenchOptions(), args);

    private static System.CommandLine.ParseResult Parse(SyncDataBenchmark.Runner.BenchOptions options, string[] args) =>
        options.Command((_, _) => Task.FromResult(0)).Parse([.. args, "--out", Out]);

    [Theory]
    [InlineData(new string[0], new[] { "none" })]
    [InlineData(new[] { "--compression", "none,gzip,brotli" }, new[] { "none", "gzip", "brotli" })]
    [InlineData(new[] { "--compression", "GZIP", "--compression", "Brotli" }, new[] { "gzip", "brotli" })]
    public void Compression_lists_parse_to_the_names_in_order(string[] args, string[] expected)
    {
        var options = new SyncDataBenchmark.Runner.BenchOptions();
        var parse = Parse(options, args);
        Assert.Empty(parse.Errors);
        Assert.Equal(expected, options.Settings(parse).Compressions);
    }

    [Theory]
    [InlineData("deflate", "'deflate' is not valid: one or more of none, gzip, brotli")]
    [InlineData("br", "'br' is not valid: one or more of none, gzip, brotli")]
    [InlineData("gzip,GZIP", "names a compression twice")]
    [InlineData(",", "',' is not valid")]
    public void A_bad_compression_is_one_line_naming_it(string value, string mentions)
    {
        var errors = Parse("--compression", value).Errors.Select(e => e.Message).ToList();
        Assert.Contains(errors, e => e.StartsWith("--compression: ", StringComparison.Ordinal) && e.Contains(mentions, StringComparison.Ordinal));
    }

    [Fact]
    public void A_compressed_case_has_its_own_key_title_and_picture_and_none_keeps_todays()
    {
        var plain = new SyncDataBenchmark.Runner.Combination(9, new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopy"));
        var gzip = plain with { Compression = BodyCompression.Gzip };
        var users = SyncData.Postgres.SyncTable.Users;
        var (plainCase, gzipCase) = (SyncDataBenchmark.Runner.CaseIdentity.Of(plain, users, null), SyncDataBenchmark.Runner.CaseIdentity.Of(gzip, users, null));
        Assert.Equal(("NpgsqlCopy:NpgsqlCopy", "9.png", "NpgsqlCopy × NpgsqlCopy"), (plain.Key, plainCase.Picture(null), plainCase.Label));
        Assert.Equal(("NpgsqlCopy:NpgsqlCopy[gzip]", "9-gzip.png", "NpgsqlCopy × NpgsqlCopy [gzip]"), (gzip.Key, gzipCase.Picture(null), gzipCase.Label));
    }

    [Fact]
    public void The_trigger_sends_c_only_when_asked()
    {
        Assert.Equal("sync?f=EFStream&i=NpgsqlCopy&wait=true", SyncRoutes.Trigger("EFStream", "NpgsqlCopy", wait: true));
        Assert.Equal("sync?f=EFStream&i=NpgsqlCopy&wait=true&c=brotli", SyncRoutes.Trigger("EFStream", "NpgsqlCopy", wait: true, compression: "brotli"));
    }
}
