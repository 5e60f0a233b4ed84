using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// One run's reads of SyncDataSource, handed to its fetch consumer: the run's id, which every request names
/// (<see cref="SourceRoutes.RunHeader"/>), its content coding (<see cref="BodyCompression"/>), and the body bytes its
/// fetch responses brought, as received on the wire and decoded. A read of no run (<see cref="Id"/> null: the tests,
/// a warm-up) names none.
/// </summary>
public sealed class ConsumerRun(SourceClient source, SyncRequest request, Guid? id)
{
    private long _wireBytes;
    private long _bodyBytes;

    public Guid? Id { get; } = id;

    public SyncRequest Request { get; } = request;

    /// <summary>
    /// The target's watermark for the run's table (sync_watermarks: the source snapshot its last verified sync read, as
    /// pg_current_snapshot() prints it), which a change fetch asks for changes since; null when the target has none.
    /// </summary>
    public string? Since { get; init; }

    /// <summary><see cref="Since"/>, or an error naming why a change fetch cannot run without it.</summary>
    public string RequireSince() =>
        Since ?? throw new InvalidOperationException(
            $"The target has no watermark for {Request.Table.Name}: a verified full sync must run first (a change fetch asks only for what changed since the last one).");

    /// <summary>The Accept-Encoding token the run's fetch requests send, and the Content-Encoding they must come back with; null for none.</summary>
    public string? ContentCoding => BodyCompression.ContentCoding(Request.Compression);

    public long WireBytes => Interlocked.Read(ref _wireBytes);

    public long BodyBytes => Interlocked.Read(ref _bodyBytes);

    /// <summary>GET <paramref name="relativeUri"/> as a request of this run: the body decoded, counted and guarded by the idle timeout.</summary>
    public Task<Stream> OpenStreamAsync(string relativeUri, CancellationToken ct) => source.OpenStreamAsync(relativeUri, this, ct);

    /// <summary>How long the source may send nothing before a read of this run fails.</summary>
    public TimeSpan IdleTimeout => source.IdleTimeout;

    /// <summary>Sends a request of this run that is not one GET (GrpcStream's call): see <see cref="SourceClient.SendAsync"/>.</summary>
    public Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken ct) => source.SendAsync(request, this, ct);

    /// <summary>The source's count and checksum, read in this run's snapshot.</summary>
    public Task<TableChecksum> ReadChecksumAsync(CancellationToken ct) => source.ReadChecksumAsync(this, ct);

    /// <summary>The keys of the run's table deleted since <see cref="Since"/>, read in this run's snapshot (a request of the run).</summary>
    public async Task<IReadOnlyList<string>> ReadDeletedKeysAsync(CancellationToken ct) => await source.ReadDeletedKeysAsync(this, ct);

    internal void AddWire(int bytes) => Interlocked.Add(ref _wireBytes, bytes);

    internal void AddBody(int bytes) => Interlocked.Add(ref _bodyBytes, bytes);
}
