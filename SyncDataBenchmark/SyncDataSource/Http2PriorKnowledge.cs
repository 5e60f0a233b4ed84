using System.Buffers;
using System.Net;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace SyncDataSource;

/// <summary>
/// HTTP/2 with prior knowledge (RFC 9113 §3.4: a cleartext client that knows the server speaks HTTP/2 starts with its
/// connection preface) on the service's own cleartext endpoints, beside HTTP/1.1. Kestrel does not do this yet: an
/// Http1AndHttp2 endpoint without TLS always speaks HTTP/1.1 and answers a preface with HTTP_1_1_REQUIRED
/// (dotnet/aspnetcore#56984). So one loopback endpoint on a dynamic port is made HTTP/2-only, only so that Kestrel builds
/// its HTTP/2 pipeline; every other endpoint peeks at a new connection's first bytes and hands a connection that
/// starts with the preface to that pipeline, unread. Nothing else changes: the harness's --urls, --link's addresses and
/// every proxy in between keep one address per service, and the gRPC call reaches it like any fetch.
/// </summary>
internal static class Http2PriorKnowledge
{
    private static readonly byte[] Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8.ToArray();

    /// <summary>First in the list, so its pipeline exists before any other endpoint accepts a connection.</summary>
    private const string PipelineUrl = "http://127.0.0.1:0";

    /// <summary>How long a new connection may send fewer bytes than the preface before it is taken for HTTP/1.1.</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public static void Enable(IWebHostBuilder webHost, IConfiguration configuration)
    {
        if (configuration[WebHostDefaults.ServerUrlsKey] is not { Length: > 0 } urls)
        {
            return;
        }

        webHost.UseSetting(WebHostDefaults.ServerUrlsKey, PipelineUrl + ";" + urls);
        ConnectionDelegate? http2 = null;
        webHost.ConfigureKestrel(kestrel => kestrel.ConfigureEndpointDefaults(listen =>
        {
            if (listen.IPEndPoint is { Port: 0 } endPoint && endPoint.Address.Equals(IPAddress.Loopback))
            {
                listen.Protocols = HttpProtocols.Http2;
                listen.Use(pipeline => http2 = pipeline);
                SayWhatItIs(kestrel.ApplicationServices, listen, urls);
            }
            else if (listen.IPEndPoint is not null && listen.Protocols.HasFlag(HttpProtocols.Http1) && listen.Protocols.HasFlag(HttpProtocols.Http2))
            {
                listen.Use(http1 => connection => DispatchAsync(connection, http1, http2));
            }
        }));
    }

    /// <summary>
    /// Kestrel logs "Now listening on" for the pipeline's endpoint like any other, and a reader would take it for a
    /// second address of the service: once the port is bound, say what it is and which address to call instead.
    /// </summary>
    private static void SayWhatItIs(IServiceProvider services, ListenOptions pipeline, string urls) =>
        services.GetRequiredService<IHostApplicationLifetime>().ApplicationStarted.Register(() =>
            services.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(Http2PriorKnowledge).FullName!).LogInformation(
                "http://{Pipeline} is internal, not an address to call: Kestrel's HTTP/2 pipeline for GrpcStream, to which connections that open " +
                "with HTTP/2's preface on the service's own address ({Urls}) are handed", pipeline.IPEndPoint, urls));

    private static async Task DispatchAsync(ConnectionContext connection, ConnectionDelegate http1, ConnectionDelegate? http2)
    {
        using var patience = CancellationTokenSource.CreateLinkedTokenSource(connection.ConnectionClosed);
        patience.CancelAfter(Patience);
        var input = connection.Transport.Input;
        bool? preface = null;
        try
        {
            while (preface is null)
            {
                var read = await input.ReadAsync(patience.Token);
                preface = StartsWithPreface(read.Buffer) ?? (read.IsCompleted ? false : null);
                // Nothing consumed: the pipeline chosen reads the same bytes; "examined" says whether to wait for more.
                input.AdvanceTo(read.Buffer.Start, preface is null ? read.Buffer.End : read.Buffer.Start);
            }
        }
        catch (OperationCanceledException) when (!connection.ConnectionClosed.IsCancellationRequested)
        {
            preface = false;
        }

        await (preface == true && http2 is not null ? http2(connection) : http1(connection));
    }

    /// <summary>True: the preface; false: something else; null: a prefix of it so far.</summary>
    private static bool? StartsWithPreface(ReadOnlySequence<byte> buffer)
    {
        Span<byte> head = stackalloc byte[Preface.Length];
        var length = (int)Math.Min(buffer.Length, Preface.Length);
        buffer.Slice(0, length).CopyTo(head);
        return !head[..length].SequenceEqual(Preface.AsSpan(0, length)) ? false : length == Preface.Length ? true : null;
    }
}
