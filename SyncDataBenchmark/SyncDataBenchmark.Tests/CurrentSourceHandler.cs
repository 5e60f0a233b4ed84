using System.Net.Sockets;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Sends each request to the in-process SyncDataSource current when it is made: HttpClientFactory keeps a primary
/// handler for minutes, and one made by a stopped test server would keep answering that it is disposed. While none is
/// running (null), a request fails as a refused connection does, and one the stopping server drops fails as a reset
/// connection does (a stopped test server throws ObjectDisposedException, which no real connection does).
/// </summary>
internal sealed class CurrentSourceHandler(Func<HttpMessageHandler?> current) : HttpMessageHandler
{
    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        if (current() is not { } handler)
        {
            throw new HttpRequestException(HttpRequestError.ConnectionError, "SyncDataSource is not running", new SocketException((int)SocketError.ConnectionRefused));
        }

        try
        {
            return await new HttpMessageInvoker(handler, disposeHandler: true).SendAsync(request, cancellationToken);
        }
        catch (ObjectDisposedException ex)
        {
            throw new HttpRequestException(HttpRequestError.ConnectionError, "SyncDataSource stopped during the request", ex);
        }
    }
}
