using SomeService;
using System.Net;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Malformed requests to both services, hosted in process over a real PostgreSQL: every one a 4xx ProblemDetails,
/// none a 500, nothing broken after. (Kestrel's own 414 for an oversized request line is Kestrel's, not the
/// services', and has no in-process equivalent.)
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class BadInputTests(InProcessLab lab) : IAsyncLifetime
{
    private Microsoft.AspNetCore.Mvc.Testing.WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions> _source = null!;
    private Microsoft.AspNetCore.Mvc.Testing.WebApplicationFactory<SomeService.Sync.SyncOptions> _someService = null!;
    private HttpClient _client = null!;
    private HttpClient _sourceClient = null!;

    public Task InitializeAsync()
    {
        _source = lab.Source();
        _someService = lab.SomeService(_source);
        _sourceClient = _source.CreateClient();
        _client = _someService.CreateClient();
        return Task.CompletedTask;
    }

    public async Task DisposeAsync()
    {
        _client.Dispose();
        _sourceClient.Dispose();
        await _someService.DisposeAsync();
        await _source.DisposeAsync();
    }

    private static readonly string Huge = new('9', 40);
    private static readonly string LongValue = new('A', 6_000);

    /// <summary>(service, method, path and query, expected status, text the problem must contain).</summary>
    public static TheoryData<string, string, string, int, string> Requests()
    {
        var fetches = ApproachRegistry.Catalog.FetchNames;
        var inserts = ApproachRegistry.Catalog.InsertNames;
        var data = new TheoryData<string, string, string, int, string>
        {
            // SomeService: approach names
            { "some", "GET", "sync", 400, fetches },
            { "some", "GET", "sync?i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=NpgsqlCopy", 400, inserts },
            { "some", "GET", "sync?f=&i=", 400, fetches },
            { "some", "GET", "sync?f=%20&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=Npgsql&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=NpgsqlCopy&i=Copy", 400, inserts },
            { "some", "GET", "sync?f=0&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=NpgsqlCopy&i=1", 400, inserts },
            { "some", "GET", "sync?f=NpgsqlCopy,EFStream&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=NpgsqlCopy'%3B%20drop%20table%20users%3B--&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=NpgsqlCopy&i=%3Cscript%3Ealert(1)%3C%2Fscript%3E", 400, inserts },
            { "some", "GET", "sync?f=..%2F..%2Fetc%2Fpasswd&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=%00&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=Npgsql%C3%87opy&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", $"sync?f={LongValue}&i=NpgsqlCopy", 400, fetches },
            { "some", "GET", "sync?f=EFStream&i=NpgsqlCopyRaw", 400, "needs f=ArrowStream or f=NpgsqlCopy" },
            { "some", "GET", "sync?f=EFOffsetPaging&i=NpgsqlCopyRaw", 400, "needs f=ArrowStream or f=NpgsqlCopy" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopyRawTuned", 400, "needs f=ArrowStream or f=NpgsqlCopy" },
            // SomeService: compression
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&c=deflate", 400, "none, gzip, brotli" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&c=br", 400, "none, gzip, brotli" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&c=", 400, "none, gzip, brotli" },
            // SomeService: tables
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&table=accounts", 400, "Valid values: users, orders" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&table=", 400, "Valid values: users, orders" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&table=orders%3B%20drop%20table%20users", 400, "Valid values: users, orders" },
            // SomeService: numbers
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=0", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=-1", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=abc", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=1.5", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=1e3", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=10001", 400, "pageSize" },
            { "some", "GET", $"sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize={Huge}", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=%2B5", 400, "pageSize" },
            { "some", "GET", "sync?f=EFKeysetPaging&i=NpgsqlCopy&pageSize=0x10", 400, "pageSize" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=EFTypical&batchSize=0", 400, "batchSize" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=EFTypical&batchSize=-100", 400, "batchSize" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=EFTypical&batchSize=100001", 400, "batchSize" },
            { "some", "GET", $"sync?f=NpgsqlCopy&i=EFTypical&batchSize={Huge}", 400, "batchSize" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=EFTypical&batchSize=ten", 400, "batchSize" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&wait=yes", 400, "wait" },
            { "some", "GET", "sync?f=NpgsqlCopy&i=NpgsqlCopy&wait=1", 400, "wait" },
            { "some", "GET", "sync/runs?limit=0", 400, "limit" },
            { "some", "GET", "sync/runs?limit=-5", 400, "limit" },
            { "some", "GET", "sync/runs?limit=many", 400, "limit" },
            { "some", "GET", "sync/runs?limit=1001", 400, "limit" },
            // SomeService: ids, methods, oversized requests
            // Each 4xx names the parameter or resource at fault (issue 62: bare 404s, one catch-all 400).
            { "some", "GET", "sync/runs/not-a-uuid", 400, "id: 'not-a-uuid' is not a run id" },
            { "some", "DELETE", "sync/runs/not-a-uuid", 400, "id: 'not-a-uuid' is not a run id" },
            { "some", "GET", $"sync/runs/{Guid.Empty}", 404, $"No run {Guid.Empty} is stored here" },
            { "some", "DELETE", $"sync/runs/{Guid.Empty}", 404, $"No run {Guid.Empty} is stored here" },
            { "some", "POST", "follow/nosuch", 400, "table: 'nosuch' is not a table to follow; one of users, orders" },
            { "some", "POST", "follow/users?slot=Bad-Slot", 400, "\"slot: 'Bad-Slot' is not a slot name (a-z, 0-9, _, at most 63 characters).\"" },
            { "some", "POST", "follow/users?batch=0", 400, "\"batch: 0 is outside 1–1,000,000.\"" },
            { "some", "DELETE", "follow/orders", 404, "orders is not followed here (POST /follow/orders starts it)" },
            { "some", "DELETE", "follow/nosuch", 404, "table: 'nosuch' is not a table to follow" },
            { "some", "GET", "follow/nosuch", 404, "table: 'nosuch' is not a table to follow" },
            { "some", "GET", "follow/users/stages", 404, "users is not followed here" },
            { "some", "POST", "sync?f=NpgsqlCopy&i=NpgsqlCopy", 405, "" },
            { "some", "PUT", "sync/runs", 405, "" },
            { "some", "DELETE", "sync", 405, "" },
            // SyncDataSource: page endpoints
            { "source", "GET", "users/offset", 400, "offset" },
            { "source", "GET", "users/offset?offset=0", 400, "limit" },
            { "source", "GET", "users/offset?offset=-1&limit=10", 400, "offset" },
            { "source", "GET", "users/offset?offset=abc&limit=10", 400, "offset" },
            { "source", "GET", $"users/offset?offset={Huge}&limit=10", 400, "offset" },
            { "source", "GET", "users/offset?offset=0&limit=0", 400, "limit" },
            { "source", "GET", "users/offset?offset=0&limit=-10", 400, "limit" },
            { "source", "GET", "users/offset?offset=0&limit=10001", 400, "limit" },
            { "source", "GET", "users/offset?offset=0&limit=1%3B%20select%20pg_sleep(10)", 400, "limit" },
            { "source", "GET", "users/offset?offset=1.5&limit=10", 400, "offset" },
            { "source", "GET", "users/keyset?limit=10&after=not-a-uuid", 400, "after" },
            { "source", "GET", "users/keyset?limit=10&after=", 400, "after" },
            { "source", "GET", "users/keyset?limit=10&after=00000000-0000-0000-0000-00000000000g", 400, "after" },
            { "source", "GET", "users/keyset?limit=10&after='%20or%201%3D1--", 400, "after" },
            { "source", "GET", $"users/keyset?limit=10&after={LongValue}", 400, "after" },
            { "source", "GET", "users/keyset", 400, "limit" },
            { "source", "GET", "users/keyset?limit=1000000", 400, "limit" },
            { "source", "POST", "users/stream", 405, "" },
            { "source", "DELETE", "users/copy", 405, "" },
            { "source", "PUT", "users/checksum", 405, "" },
            { "source", "GET", "users/nothing", 404, "" },
            { "source", "POST", "runs/not-a-run-id", 404, "" },
            { "source", "PUT", $"runs/{Guid.Empty}", 405, "" },
            { "source", "POST", $"runs/{Guid.Empty}/alive", 409, "never begun" },
            // A run is measured from its begin to its end (runs/{id}): no window is opened or closed by hand.
            { "source", "POST", "runtime/window/start", 404, "" },
            { "some", "POST", "runtime/window/stop", 404, "" },
        };
        return data;
    }

    [Theory]
    [MemberData(nameof(Requests))]
    public async Task Malformed_request_gets_a_4xx_problem(string service, string method, string pathAndQuery, int status, string mentions)
    {
        var client = service == "some" ? _client : _sourceClient;
        using var request = new HttpRequestMessage(new HttpMethod(method), pathAndQuery);
        using var response = await client.SendAsync(request);
        var body = await response.Content.ReadAsStringAsync();

        Assert.True(status == (int)response.StatusCode, $"{method} {pathAndQuery[..Math.Min(80, pathAndQuery.Length)]}: {(int)response.StatusCode} {body}");

        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        using var problem = JsonDocument.Parse(body);
        Assert.Equal(status, problem.RootElement.GetProperty("status").GetInt32());
        Assert.Contains(mentions, body);
        Assert.True(body.Length < 4_000, "the problem echoes the whole oversized input back");
    }

    /// <summary>A header that names no run is refused, not read as "no run" (a full answer outside any run's snapshot).</summary>
    [Theory]
    [InlineData("not-a-run")]
    [InlineData("12345")]
    [InlineData("00000000-0000-0000-0000-00000000000g")]
    [InlineData("3f2504e0-4f89-11d3-9a0c-0305e82c3301, 3f2504e0-4f89-11d3-9a0c-0305e82c3302")]
    public async Task A_malformed_run_header_is_a_400_naming_it(string header)
    {
        foreach (var path in new[] { "users/copy", "users/stream", "users/checksum", "orders/keyset?limit=10" })
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, path);
            request.Headers.TryAddWithoutValidation(SourceRoutes.RunHeader, header);
            using var response = await _sourceClient.SendAsync(request);
            var body = await response.Content.ReadAsStringAsync();
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"GET {path} with {SourceRoutes.RunHeader}: '{header}': {(int)response.StatusCode} {body[..Math.Min(body.Length, 300)]}");
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            Assert.Contains(SourceRoutes.RunHeader, body);
        }
    }

    [Fact]
    public async Task After_all_the_bad_input_both_services_still_sync_correctly()
    {
        foreach (var (service, method, path, _, _) in Requests().Select(r => ((string)r[0], (string)r[1], (string)r[2], r[3], r[4])))
        {
            using var request = new HttpRequestMessage(new HttpMethod(method), path);
            using var _ = await (service == "some" ? _client : _sourceClient).SendAsync(request);
        }

        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        var run = await InProcessLab.SyncAsync(_client, "EFKeysetPaging", "NpgsqlCopy");
        Assert.True(run.Verified, run.Error);
        Assert.Equal(InProcessLab.Rows, run.Rows);
        Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb), await Lab.ReadChecksumAsync(lab.TargetDb));
    }
}
