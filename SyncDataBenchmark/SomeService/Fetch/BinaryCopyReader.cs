using System.Buffers;
using System.Runtime.CompilerServices;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Reader of PostgreSQL's binary COPY format for the users columns in <see cref="UsersTable.Columns"/> order:
/// <see cref="BinaryCopyFraming"/> finds each field, this decodes it. It holds one network buffer (and, while a field
/// is cut between two reads, that field's bytes), and a stream that ends before the trailer (-1 field count) is an
/// error, never a short success.
/// </summary>
public static class BinaryCopyReader
{
    private const int BufferSize = 64 * 1024;

    public static async IAsyncEnumerable<User> ReadUsersAsync(Stream stream, [EnumeratorCancellation] CancellationToken ct)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        var decoder = new UsersCopyDecoder();
        var rows = new List<User>(512);
        try
        {
            while (true)
            {
                var read = await stream.ReadAsync(buffer.AsMemory(0, BufferSize), ct);
                if (read == 0)
                {
                    throw new SourceStreamException(
                        $"SyncDataSource's COPY stream ended without its trailer after {decoder.Rows:N0} rows: the source stopped mid-stream.");
                }

                var trailerSeen = decoder.Decode(buffer.AsSpan(0, read), rows);
                foreach (var row in rows)
                {
                    yield return row;
                }

                rows.Clear();
                if (trailerSeen)
                {
                    yield break;
                }
            }
        }
        finally
        {
            decoder.Dispose();
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
