using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>EFStream: one request, one JSON array streamed from EF's AsAsyncEnumerable.</summary>
[Approach(FetchApproach.EFStream)]
public sealed class EFStreamSource(SourceClient client) : IUserSource
{
    public bool UsesPages => false;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await client.OpenStreamAsync(SourceRoutes.Stream, ct);
        await foreach (var user in JsonRows.ReadAsync(body, SourceRoutes.Stream, ct))
        {
            yield return user;
        }
    }
}
