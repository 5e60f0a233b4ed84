using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;
using System.Runtime.CompilerServices;
using System.Text;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Incremental reader of PostgreSQL's binary COPY format (header, tuples, trailer) for the users columns in
/// <see cref="UsersTable.Columns"/> order. It holds at most one network buffer, and a stream that ends before the
/// trailer (-1 field count) is an error, never a short success.
/// </summary>
public static class BinaryCopyReader
{
    private static readonly byte[] Signature = [(byte)'P', (byte)'G', (byte)'C', (byte)'O', (byte)'P', (byte)'Y', (byte)'\n', 0xFF, (byte)'\r', (byte)'\n', 0];
    private const int FieldCount = 6;
    private const long PostgresEpochTicks = 630_822_816_000_000_000; // new DateTime(2000, 1, 1).Ticks
    private const long MinMicros = (0 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond; // DateTime.MinValue: 0001-01-01 00:00:00
    private const long MaxMicros = (3_155_378_975_999_999_999 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond; // DateTime.MaxValue, to the microsecond

    public static async IAsyncEnumerable<User> ReadUsersAsync(Stream stream, [EnumeratorCancellation] CancellationToken ct)
    {
        var pipe = PipeReader.Create(stream, new StreamPipeReaderOptions(bufferSize: 64 * 1024, minimumReadSize: 16 * 1024, leaveOpen: true));
        var state = new ParserState();
        var rows = new List<User>(512);
        try
        {
            while (true)
            {
                var result = await pipe.ReadAsync(ct);
                var buffer = result.Buffer;
                var consumed = Parse(buffer, state, rows);
                pipe.AdvanceTo(consumed, buffer.End);
                foreach (var row in rows)
                {
                    yield return row;
                }

                rows.Clear();
                if (state.TrailerSeen)
                {
                    yield break;
                }

                if (result.IsCompleted)
                {
                    throw new SourceStreamException(
                        $"SyncDataSource's COPY stream ended without its trailer after {state.Rows:N0} rows: the source stopped mid-stream.");
                }
            }
        }
        finally
        {
            await pipe.CompleteAsync();
        }
    }

    private sealed class ParserState
    {
        public bool HeaderRead;
        public bool TrailerSeen;
        public long Rows;
    }

    /// <summary>Parses every complete tuple in <paramref name="buffer"/>; returns where the first incomplete one starts.</summary>
    private static SequencePosition Parse(ReadOnlySequence<byte> buffer, ParserState state, List<User> rows)
    {
        var reader = new SequenceReader<byte>(buffer);
        if (!state.HeaderRead)
        {
            if (!TryReadHeader(ref reader))
            {
                return buffer.Start;
            }

            state.HeaderRead = true;
        }

        while (true)
        {
            var rowStart = reader.Position;
            if (!reader.TryReadBigEndian(out short fields))
            {
                return rowStart;
            }

            if (fields == -1)
            {
                state.TrailerSeen = true;
                return reader.Position;
            }

            if (fields != FieldCount)
            {
                throw new SourceStreamException($"COPY tuple {state.Rows + 1:N0} has {fields} fields; expected {FieldCount} ({UsersTable.Columns}).");
            }

            if (!TryReadUser(ref reader, state.Rows + 1, out var user))
            {
                return rowStart;
            }

            rows.Add(user);
            state.Rows++;
        }
    }

    private static bool TryReadHeader(ref SequenceReader<byte> reader)
    {
        if (reader.Remaining < Signature.Length + 8)
        {
            return false;
        }

        if (!reader.IsNext(Signature, advancePast: true))
        {
            throw new SourceStreamException("SyncDataSource's body is not PostgreSQL binary COPY (bad signature).");
        }

        reader.TryReadBigEndian(out int flags);
        reader.TryReadBigEndian(out int extensionLength);
        // Bits 16-31 are critical format flags (16 = OIDs included); none is expected from COPY of a plain table.
        if ((flags & unchecked((int)0xFFFF0000)) != 0)
        {
            throw new SourceStreamException($"COPY header has unsupported flags 0x{flags:X8}.");
        }

        if (extensionLength < 0)
        {
            throw new SourceStreamException($"COPY header extension length {extensionLength} is invalid.");
        }

        if (reader.Remaining < extensionLength)
        {
            return false;
        }

        reader.Advance(extensionLength);
        return true;
    }

    private static bool TryReadUser(ref SequenceReader<byte> reader, long rowNumber, out User user)
    {
        user = null!;
        Span<byte> uuid = stackalloc byte[16];
        if (!TryField(ref reader, 16, rowNumber, "id", out _) || !reader.TryCopyTo(uuid))
        {
            return false;
        }

        reader.Advance(16);
        if (!TryText(ref reader, rowNumber, "name", out var name)
            || !TryText(ref reader, rowNumber, "patronymic", out var patronymic)
            || !TryText(ref reader, rowNumber, "surname", out var surname)
            || !TryField(ref reader, 8, rowNumber, "created_at", out _)
            || !reader.TryReadBigEndian(out long micros)
            || !TryField(ref reader, 1, rowNumber, "is_active", out _)
            || !reader.TryRead(out byte active))
        {
            return false;
        }

        var id = new Guid(uuid, bigEndian: true);
        var createdAt = CreatedAt(micros, id);
        user = new User
        {
            Id = id,
            Name = name,
            Patronymic = patronymic,
            Surname = surname,
            CreatedAt = createdAt,
            IsActive = active != 0,
        };
        return true;
    }

    /// <summary>
    /// .NET's DateTime holds years 1–9999; PostgreSQL's timestamp holds 4713 BC–294276 AD and ±infinity. ±infinity
    /// become DateTime.MaxValue/MinValue, as Npgsql's default mapping reads them and writes them back. The value that
    /// mapping cannot tell apart (0001-01-01 00:00:00, which would be written back as -infinity) and anything outside
    /// 1–9999 are refused with their row, never clamped or mapped.
    /// </summary>
    private static DateTime CreatedAt(long micros, Guid id) => micros switch
    {
        long.MaxValue => DateTime.MaxValue,
        long.MinValue => DateTime.MinValue,
        > MinMicros and <= MaxMicros => new DateTime(PostgresEpochTicks + micros * TimeSpan.TicksPerMicrosecond, DateTimeKind.Unspecified),
        _ => throw new SourceStreamException(
            $"row {id}: created_at = {PostgresTimestamp.Format(micros)} cannot be carried by a parsed COPY row: .NET's DateTime holds years 1–9999, " +
            "and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity. Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged."),
    };

    /// <summary>Reads a field's length word; false when more bytes are needed. Fixed-width fields must match their size.</summary>
    private static bool TryField(ref SequenceReader<byte> reader, int expectedLength, long rowNumber, string column, out int length)
    {
        if (!reader.TryReadBigEndian(out length))
        {
            return false;
        }

        if (length == -1)
        {
            throw new SourceStreamException($"COPY tuple {rowNumber:N0}: {column} is NULL, but the column is NOT NULL.");
        }

        if (expectedLength >= 0 ? length != expectedLength : length < 0)
        {
            throw new SourceStreamException($"COPY tuple {rowNumber:N0}: {column} has length {length}; expected {(expectedLength >= 0 ? expectedLength : "≥ 0")}.");
        }

        return reader.Remaining >= length;
    }

    private static bool TryText(ref SequenceReader<byte> reader, long rowNumber, string column, out string value)
    {
        value = "";
        if (!TryField(ref reader, -1, rowNumber, column, out var length))
        {
            return false;
        }

        if (reader.UnreadSpan.Length >= length)
        {
            value = Encoding.UTF8.GetString(reader.UnreadSpan[..length]);
        }
        else
        {
            // The value straddles two network buffers.
            var rented = ArrayPool<byte>.Shared.Rent(length);
            reader.TryCopyTo(rented.AsSpan(0, length));
            value = Encoding.UTF8.GetString(rented, 0, length);
            ArrayPool<byte>.Shared.Return(rented);
        }

        reader.Advance(length);
        return true;
    }
}
