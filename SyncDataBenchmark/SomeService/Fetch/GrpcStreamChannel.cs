using System.Net;
using Grpc.Net.Client;
using SyncData.Grpc;

namespace SomeService.Fetch;

/// <summary>
/// A gRPC channel whose calls are requests of one run, sent through the run's own <see cref="SourceClient"/>: its
/// HttpClient knows SyncDataSource's address (Sync:SourceBaseUrl, so --link and every proxy a test puts in between
/// apply), names the run (x-sync-run: the call reads the run's snapshot), and its handler pool carries the HTTP/2
/// connection. The channel's own address is a placeholder: each call's path is sent relative to the client's.
/// </summary>
internal sealed class GrpcStreamChannel : HttpMessageHandler
{
    private static readonly Uri Placeholder = new("http://syncdatasource.invalid/");

    private readonly ConsumerRun _run;

    private GrpcStreamChannel(ConsumerRun run) => _run = run;

    /// <summary>The grpc-encoding the source's response named (null: identity), once its headers arrived.</summary>
    public string? ResponseEncoding { get; private set; }

    public static (GrpcChannel Channel, GrpcStreamChannel Handler) Open(ConsumerRun run)
    {
        var handler = new GrpcStreamChannel(run);
        var channel = GrpcChannel.ForAddress(Placeholder, new GrpcChannelOptions
        {
            HttpHandler = handler,
            DisposeHttpClient = true,
            CompressionProviders = GrpcCompression.Providers(),
            // A batch of the longest rows must still come in (UsersMessages.BatchRows); memory is bounded by the batch.
            MaxReceiveMessageSize = null,
        });
        return (channel, handler);
    }

    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        request.RequestUri = new Uri(request.RequestUri!.PathAndQuery.TrimStart('/'), UriKind.Relative);
        var response = await _run.SendAsync(request, cancellationToken);
        ResponseEncoding = response.Headers.TryGetValues(GrpcCompression.EncodingHeader, out var codings) ? string.Join(", ", codings) : null;
        if (ResponseEncoding == "identity")
        {
            ResponseEncoding = null;
        }

        response.Content = new CountedContent(response.Content, _run, countsDecoded: ResponseEncoding is null);
        return response;
    }

    /// <summary>The response body with its bytes counted as the run's wire bytes (and body bytes, when nothing is compressed).</summary>
    private sealed class CountedContent : HttpContent
    {
        private readonly HttpContent _inner;
        private readonly ConsumerRun _run;
        private readonly bool _countsDecoded;

        public CountedContent(HttpContent inner, ConsumerRun run, bool countsDecoded)
        {
            (_inner, _run, _countsDecoded) = (inner, run, countsDecoded);
            foreach (var header in inner.Headers)
            {
                Headers.TryAddWithoutValidation(header.Key, header.Value);
            }
        }

        protected override async Task<Stream> CreateContentReadStreamAsync(CancellationToken cancellationToken) =>
            new CountingStream(await _inner.ReadAsStreamAsync(cancellationToken), _run, _countsDecoded);

        protected override Task<Stream> CreateContentReadStreamAsync() => CreateContentReadStreamAsync(CancellationToken.None);

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => _inner.CopyToAsync(stream, context);

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                _inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }

    private sealed class CountingStream(Stream inner, ConsumerRun run, bool countsDecoded) : ReadOnlyBodyStream(inner)
    {
        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            Counted(await Inner.ReadAsync(buffer, cancellationToken));

        public override int Read(byte[] buffer, int offset, int count) => Counted(Inner.Read(buffer, offset, count));

        private int Counted(int read)
        {
            run.AddWire(read);
            if (countsDecoded)
            {
                run.AddBody(read);
            }

            return read;
        }
    }
}
