using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>EFStream: one request, one JSON array streamed from EF's AsAsyncEnumerable.</summary>
// The route is the one the original URLs used; SyncDataSource's endpoint declares the same.
[Approach(ApproachKind.Fetch, "EFStream", Route = "users/stream")]
public sealed class EFStreamConsumer(SourceClient client) : IFetchConsumer
{
    private static readonly string Route = Approach.Of(typeof(EFStreamConsumer)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await client.OpenStreamAsync(Route, ct);
        await foreach (var user in JsonRows.ReadAsync(body, Route, ct))
        {
            yield return user;
        }
    }
}
