using System.Net.Http.Json;
using Microsoft.Extensions.Options;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>HTTP access to SyncDataSource. Whole-request timeouts are off; stalls are caught per read instead.</summary>
public sealed class SourceClient(HttpClient http, IOptions<SyncOptions> options)
{
    public TimeSpan IdleTimeout => options.Value.SourceIdleTimeout;

    /// <summary>
    /// POST runs/{id}: SyncDataSource begins the run (once the previous run's baseline collection has finished, it opens
    /// its measurement window and the run's snapshot) and answers the snapshot.
    /// </summary>
    public Task<SourceSnapshot> BeginRunAsync(Guid run, CancellationToken ct) =>
        SendForJsonAsync(new HttpRequestMessage(HttpMethod.Post, SourceRoutes.Run(run)), SyncJsonContext.Default.SourceSnapshot, IdleTimeout, ct);

    /// <summary>POST runs/{id}?snapshot=false: SyncDataSource opens its measurement window only (a --follow window).</summary>
    public Task BeginWindowAsync(Guid run, CancellationToken ct) => PostAsync(SourceRoutes.WindowOnly(run), ct);

    /// <summary>
    /// The source's count and checksum, read in the run's snapshot (a full scan, so it gets the database timeout, not
    /// the idle one).
    /// </summary>
    public Task<TableChecksum> ReadChecksumAsync(ConsumerRun run, CancellationToken ct) =>
        SendForJsonAsync(Named(new HttpRequestMessage(HttpMethod.Get, SourceRoutes.InTable(SourceRoutes.Checksum, run.Request.Table.Name)), run), SyncJsonContext.Default.TableChecksum,
            TimeSpan.FromSeconds(options.Value.DatabaseCommandTimeoutSeconds), ct);

    /// <summary>
    /// The keys of the run's table deleted since the run's watermark (<see cref="SourceRoutes.Deleted"/>), read in the
    /// run's snapshot (one index range of the source's change log, so the database timeout, not the idle one).
    /// </summary>
    public Task<List<string>> ReadDeletedKeysAsync(ConsumerRun run, CancellationToken ct) =>
        SendForJsonAsync(Named(new HttpRequestMessage(HttpMethod.Get, SourceRoutes.ChangedSince(SourceRoutes.InTable(SourceRoutes.Deleted, run.Request.Table.Name), run.RequireSince())), run),
            SyncJsonContext.Default.ListString, TimeSpan.FromSeconds(options.Value.DatabaseCommandTimeoutSeconds), ct);

    /// <summary>Tells the source the run is still at work (<see cref="SourceRoutes.RunAlive"/>), so its snapshot does not end idle.</summary>
    public Task KeepRunAliveAsync(Guid run, CancellationToken ct) => PostAsync(SourceRoutes.RunAlive(run), ct);

    /// <summary>A POST without a body to <paramref name="route"/>, within the idle timeout; a refusal is named.</summary>
    private async Task PostAsync(string route, CancellationToken ct)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(IdleTimeout);
        using var response = await http.PostAsync(route, content: null, timeout.Token);
        await EnsureSuccessAsync(response, route, ct);
    }

    /// <summary>DELETE runs/{id}: SyncDataSource ends the run (its window and its snapshot) and answers its figures.</summary>
    public Task<SourceRunEnd> EndRunAsync(Guid run, CancellationToken ct) =>
        SendForJsonAsync(new HttpRequestMessage(HttpMethod.Delete, SourceRoutes.Run(run)), SyncJsonContext.Default.SourceRunEnd, IdleTimeout, ct);

    /// <summary>
    /// Sends a GET of <paramref name="run"/> and returns the body as a stream that fails after <see cref="IdleTimeout"/>
    /// of silence. The request asks for the run's content coding, the body comes back decoded and its bytes are
    /// counted; an answer in another coding than asked is refused, so a compressed run really was one.
    /// </summary>
    public async Task<Stream> OpenStreamAsync(string relativeUri, ConsumerRun run, CancellationToken ct)
    {
        using var headersTimeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        headersTimeout.CancelAfter(IdleTimeout);
        HttpResponseMessage response;
        try
        {
            var request = Named(new HttpRequestMessage(HttpMethod.Get, relativeUri), run);
            if (run.ContentCoding is { } asked)
            {
                request.Headers.AcceptEncoding.Add(new(asked));
            }

            // ResponseHeadersRead: without it HttpClient buffers the whole body before returning.
            response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, headersTimeout.Token);
        }
        catch (Exception ex) when (ex is OperationCanceledException && !ct.IsCancellationRequested)
        {
            throw new SourceStreamException($"SyncDataSource sent no response to GET /{relativeUri} for {IdleTimeout.TotalSeconds:0.#} s (idle timeout).", ex);
        }
        catch (HttpRequestException ex)
        {
            throw new SourceStreamException($"SyncDataSource did not answer GET /{relativeUri}: {ex.Message}", ex);
        }

        try
        {
            await EnsureSuccessAsync(response, relativeUri, ct);
            var coding = CodingOf(response, relativeUri, run);
            return DecodedBodyStream.Open(new IdleTimeoutStream(await response.Content.ReadAsStreamAsync(ct), response, IdleTimeout, ct), coding, run);
        }
        catch
        {
            response.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Sends <paramref name="request"/> (its URI relative to SyncDataSource's address) as a request of <paramref name="run"/>
    /// and returns at its headers: the body, its timeout and its errors are the caller's (GrpcStream's gRPC client).
    /// </summary>
    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, ConsumerRun run, CancellationToken ct) =>
        http.SendAsync(Named(request, run), HttpCompletionOption.ResponseHeadersRead, ct);

    /// <summary>Names the run the request belongs to, if any: set on each request, by the caller that holds the run.</summary>
    /// <summary>
    /// NpgsqlReplication's stream (GET, HTTP/2, headers only awaited: it never ends by itself); no idle timeout of its own,
    /// since the source sends a heartbeat every few seconds and the follower watches for them.
    /// </summary>
    public async Task<HttpResponseMessage> OpenReplicationAsync(string relativeUri, CancellationToken ct)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, relativeUri) { Version = System.Net.HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionOrLower };
        HttpResponseMessage response;
        try
        {
            response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, ct);
        }
        catch (HttpRequestException ex)
        {
            throw new SourceStreamException($"SyncDataSource did not answer GET /{relativeUri}: {ex.Message}", ex);
        }

        try
        {
            await EnsureSuccessAsync(response, relativeUri, ct);
            return response;
        }
        catch
        {
            response.Dispose();
            throw;
        }
    }

    /// <summary>A POST or DELETE of NpgsqlReplication's (acknowledgement, slot removal), failing with the source's problem.</summary>
    public async Task SendReplicationAsync(HttpMethod method, string relativeUri, CancellationToken ct)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(IdleTimeout);
        try
        {
            using var response = await http.SendAsync(new HttpRequestMessage(method, relativeUri) { Version = System.Net.HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionOrLower }, timeout.Token);
            await EnsureSuccessAsync(response, relativeUri, ct);
        }
        catch (OperationCanceledException ex) when (!ct.IsCancellationRequested)
        {
            throw new SourceStreamException($"SyncDataSource did not answer {method} /{relativeUri} within {IdleTimeout.TotalSeconds:0.#} s (idle timeout).", ex);
        }
    }

    private static HttpRequestMessage Named(HttpRequestMessage request, ConsumerRun run)
    {
        if (run.Id is { } id)
        {
            request.Headers.Add(SourceRoutes.RunHeader, id.ToString());
        }

        return request;
    }

    /// <summary>The response's content coding (null: none), which must be the one the run asked for.</summary>
    private static string? CodingOf(HttpResponseMessage response, string relativeUri, ConsumerRun run)
    {
        var codings = response.Content.Headers.ContentEncoding;
        var received = codings.Count == 0 ? null : string.Join(", ", codings);
        if (!string.Equals(received, run.ContentCoding, StringComparison.OrdinalIgnoreCase))
        {
            throw new SourceStreamException(
                $"SyncDataSource answered GET /{relativeUri} with Content-Encoding {received ?? "(none)"}, but the run asked for {run.Request.Compression} " +
                $"(Accept-Encoding {run.ContentCoding ?? "(none)"}): the response came back in another encoding than asked.");
        }

        return received?.ToLowerInvariant();
    }

    private async Task<T> SendForJsonAsync<T>(HttpRequestMessage request, System.Text.Json.Serialization.Metadata.JsonTypeInfo<T> type, TimeSpan limit, CancellationToken ct)
    {
        using var owned = request;
        var (method, relativeUri) = (request.Method, request.RequestUri);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(limit <= TimeSpan.Zero ? Timeout.InfiniteTimeSpan : limit);
        try
        {
            using var response = await http.SendAsync(request, timeout.Token);
            await EnsureSuccessAsync(response, $"{relativeUri}", ct);
            return await response.Content.ReadFromJsonAsync(type, timeout.Token)
                   ?? throw new SourceStreamException($"SyncDataSource answered {method} /{relativeUri} with null.");
        }
        catch (Exception ex) when (ex is OperationCanceledException && !ct.IsCancellationRequested)
        {
            throw new SourceStreamException(
                $"SyncDataSource did not answer {method} /{relativeUri} within {limit.TotalSeconds:0.#} s{(limit == IdleTimeout ? " (idle timeout)" : "")}.", ex);
        }
        catch (HttpRequestException ex)
        {
            throw new SourceStreamException($"SyncDataSource did not answer {method} /{relativeUri}: {ex.Message}", ex);
        }
    }

    /// <summary>The "detail" of a ProblemDetails body: the source's own explanation, without the JSON around it.</summary>
    private static string? ProblemDetail(string body)
    {
        try
        {
            using var document = System.Text.Json.JsonDocument.Parse(body);
            return document.RootElement.ValueKind == System.Text.Json.JsonValueKind.Object
                   && document.RootElement.TryGetProperty("detail", out var detail) && detail.ValueKind == System.Text.Json.JsonValueKind.String
                ? detail.GetString()
                : null;
        }
        catch (System.Text.Json.JsonException)
        {
            return null;
        }
    }

    private static async Task EnsureSuccessAsync(HttpResponseMessage response, string relativeUri, CancellationToken ct)
    {
        if (!response.IsSuccessStatusCode)
        {
            var body = await response.Content.ReadAsStringAsync(ct);
            throw new SourceStreamException(
                $"SyncDataSource answered /{relativeUri} with {(int)response.StatusCode} {response.ReasonPhrase}: {ProblemDetail(body) ?? body[..Math.Min(body.Length, 500)]}");
        }
    }
}
