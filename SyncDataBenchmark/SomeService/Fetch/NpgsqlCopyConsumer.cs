using System.Runtime.CompilerServices;
using SyncData.Shared;
using SyncData.Shared.Fetches;

namespace SomeService.Fetch;

/// <summary>NpgsqlCopy: one request whose body is PostgreSQL binary COPY, parsed row by row as it arrives.</summary>
public sealed class NpgsqlCopyConsumer : IBinaryCopyConsumer, IFetchConsumer<NpgsqlCopyFetch>
{
    private static readonly string Route = Approach.Of(typeof(NpgsqlCopyFetch)).Route;

    public async IAsyncEnumerable<User> ReadAsync(SourceRun run, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var body = await run.OpenStreamAsync(Route, ct);
        await foreach (var user in BinaryCopyReader.ReadUsersAsync(body, ct))
        {
            yield return user;
        }
    }

    public Task<Stream> OpenCopyStreamAsync(SourceRun run, CancellationToken ct) => run.OpenStreamAsync(Route, ct);
}
