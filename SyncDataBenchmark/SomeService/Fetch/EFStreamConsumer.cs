using System.Runtime.CompilerServices;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>EFStream: one request, one JSON array streamed from EF's AsAsyncEnumerable.</summary>
public sealed class EFStreamConsumer : IFetchConsumer<EFStreamFetch>
{
    private static readonly string Route = Approach.Of(typeof(EFStreamFetch)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SourceRun run, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await run.OpenStreamAsync(Route, ct);
        await foreach (var user in JsonRows.ReadAsync(body, Route, ct))
        {
            yield return user;
        }
    }
}
