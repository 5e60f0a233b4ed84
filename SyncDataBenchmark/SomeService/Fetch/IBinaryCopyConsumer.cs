namespace SomeService.Fetch;

/// <summary>A consumer whose fetch already speaks PostgreSQL binary COPY on the wire, so its bytes can be relayed unparsed.</summary>
public interface IBinaryCopyConsumer : IFetchConsumer
{
    Task<Stream> OpenCopyStreamAsync(SourceRun run, CancellationToken ct);
}
