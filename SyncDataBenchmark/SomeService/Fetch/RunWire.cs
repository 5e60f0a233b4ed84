using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// A run's content coding (<see cref="BodyCompression"/>) and the body bytes its fetch responses brought, as received
/// on the wire and decoded. Like <see cref="RunTagHandler"/>'s id it flows with the run's async context, so the fetch
/// approaches need not know about it; outside a run (no RunWire) requests ask for no coding and count nothing.
/// </summary>
public sealed class RunWire
{
    private static readonly AsyncLocal<RunWire?> Current = new();
    private long _wireBytes;
    private long _bodyBytes;

    private RunWire(string compression) => Compression = compression;

    public string Compression { get; }

    /// <summary>The Accept-Encoding token the run's fetch requests send, and the Content-Encoding they must come back with; null for none.</summary>
    public string? ContentCoding => BodyCompression.ContentCoding(Compression);

    public long WireBytes => Interlocked.Read(ref _wireBytes);
    public long BodyBytes => Interlocked.Read(ref _bodyBytes);

    /// <summary>The calling run's, or null outside a run.</summary>
    public static RunWire? OfThisRun => Current.Value;

    /// <summary>Starts the calling async flow's (the run's own task's) record.</summary>
    public static RunWire Begin(string compression)
    {
        var wire = new RunWire(compression);
        Current.Value = wire;
        return wire;
    }

    internal void AddWire(int bytes) => Interlocked.Add(ref _wireBytes, bytes);
    internal void AddBody(int bytes) => Interlocked.Add(ref _bodyBytes, bytes);
}
