using System.Net.Sockets;

namespace SyncData.Harness.Network;

/// <summary>
/// HTTP over a Kestrel unix-socket endpoint (http://unix:/path): how the runner, in the root namespace, reaches a
/// service inside a lab namespace without any route and without using the shaped link.
/// </summary>
public static class UnixSocketHttp
{
    /// <summary>The base address such a client uses: the host name is only what the request says, the socket decides where it goes.</summary>
    public static Uri BaseAddress { get; } = new("http://localhost/");

    public static HttpClient CreateClient(string socketPath, TimeSpan timeout) =>
        new(CreateHandler(socketPath)) { BaseAddress = BaseAddress, Timeout = timeout };

    public static SocketsHttpHandler CreateHandler(string socketPath) => new()
    {
        ConnectCallback = async (_, ct) =>
        {
            var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            try
            {
                await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), ct);
                return new NetworkStream(socket, ownsSocket: true);
            }
            catch
            {
                socket.Dispose();
                throw;
            }
        },
    };
}
