using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>NpgsqlCopy: one request whose body is PostgreSQL binary COPY, parsed row by row as it arrives.</summary>
[Approach(FetchApproach.NpgsqlCopy)]
public sealed class NpgsqlCopySource(SourceClient client) : IBinaryCopySource
{
    public bool UsesPages => false;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await client.OpenStreamAsync(SourceRoutes.Copy, ct);
        await foreach (var user in BinaryCopyReader.ReadUsersAsync(body, ct))
        {
            yield return user;
        }
    }

    public Task<Stream> OpenCopyStreamAsync(CancellationToken ct) => client.OpenStreamAsync(SourceRoutes.Copy, ct);
}
