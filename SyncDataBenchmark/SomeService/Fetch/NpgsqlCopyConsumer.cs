using System.Runtime.CompilerServices;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>NpgsqlCopy: one request whose body is PostgreSQL binary COPY, parsed row by row as it arrives.</summary>
// The route is the one the original URLs used; SyncDataSource's endpoint declares the same.
[Approach(ApproachKind.Fetch, "NpgsqlCopy", CopyBytes = true, Route = "users/copy")]
public sealed class NpgsqlCopyConsumer(SourceClient client) : IBinaryCopyConsumer
{
    private static readonly string Route = Approach.Of(typeof(NpgsqlCopyConsumer)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SyncRequest request, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await client.OpenStreamAsync(Route, ct);
        await foreach (var user in BinaryCopyReader.ReadUsersAsync(body, ct))
        {
            yield return user;
        }
    }

    public Task<Stream> OpenCopyStreamAsync(CancellationToken ct) => client.OpenStreamAsync(Route, ct);
}
