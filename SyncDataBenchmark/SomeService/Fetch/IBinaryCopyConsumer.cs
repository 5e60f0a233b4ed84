namespace SomeService.Fetch;

/// <summary>A consumer whose fetch already speaks PostgreSQL binary COPY on the wire, so its bytes can be relayed unparsed.</summary>
public interface IBinaryCopyConsumer : IFetchConsumer
{
    /// <summary>The body of the run's table (<see cref="ConsumerRun.Request"/>).</summary>
    Task<Stream> OpenCopyStreamAsync(ConsumerRun run, CancellationToken ct);
}
