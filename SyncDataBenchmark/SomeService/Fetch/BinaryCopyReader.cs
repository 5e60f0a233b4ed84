using System.Buffers;
using System.Runtime.CompilerServices;
using SomeService.Tables;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Reader of PostgreSQL's binary COPY format for a table's columns in its COPY order: <see cref="BinaryCopyFraming"/>
/// finds each field, the table's <see cref="CopyRowDecoder{TRow}"/> decodes it. It holds one network buffer (and,
/// while a field is cut between two reads, that field's bytes), and a stream that ends before the trailer (-1 field
/// count) is an error, never a short success.
/// </summary>
public static class BinaryCopyReader
{
    private const int BufferSize = 64 * 1024;

    public static IAsyncEnumerable<User> ReadUsersAsync(Stream stream, CancellationToken ct) => ReadAsync(stream, UsersRowTable.Instance, ct);

    public static async IAsyncEnumerable<TRow> ReadAsync<TRow>(Stream stream, RowTable<TRow> table, [EnumeratorCancellation] CancellationToken ct)
        where TRow : class
    {
        var buffer = ArrayPool<byte>.Shared.Rent(BufferSize);
        using var decoder = table.NewCopyDecoder();
        var rows = new List<TRow>(512);
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
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
