using System.Net.Sockets;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Sends each request to the in-process SyncDataSource current when it is made: HttpClientFactory keeps a primary
/// handler for minutes, and one made by a stopped test server would keep answering that it is disposed. While none is
/// running (null), a request fails as a refused connection does.
/// </summary>
internal sealed class CurrentSourceHandler(Func<HttpMessageHandler?> current) : HttpMessageHandler
{
    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken) =>
        current() is { } handler
            ? new HttpMessageInvoker(handler, disposeHandler: true).SendAsync(request, cancellationToken)
            : throw new HttpRequestException(HttpRequestError.ConnectionError, "SyncDataSource is not running", new SocketException((int)SocketError.ConnectionRefused));
}
