using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Text;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Fetch;

/// <summary>
/// Decodes the users rows of a binary COPY body fed in pieces as they arrive: <see cref="BinaryCopyFraming"/> finds
/// each field, this checks it against its column and decodes it straight from the piece; only a field cut between two
/// pieces is copied (into a pooled buffer) to be decoded whole. A row's fields are kept until its last one arrives.
/// </summary>
internal sealed class UsersCopyDecoder : IDisposable
{
    private static readonly string[] ColumnNames = UsersTable.Columns.Split(", ");
    private static readonly int[] FixedLengths = [16, -1, -1, -1, 8, 1]; // -1: any length (text)
    private const long PostgresEpochTicks = 630_822_816_000_000_000; // new DateTime(2000, 1, 1).Ticks
    private const long MinMicros = (0 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond; // DateTime.MinValue: 0001-01-01 00:00:00
    private const long MaxMicros = (3_155_378_975_999_999_999 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond; // DateTime.MaxValue, to the microsecond

    private readonly BinaryCopyFraming _framing = new(ColumnNames, reportsFields: true);
    private byte[]? _cutField; // the bytes so far of a field cut between two pieces
    private int _cutFieldRead;
    private Guid _id;
    private string _name = "", _patronymic = "", _surname = "";
    private long _micros;

    /// <summary>Rows decoded whole.</summary>
    public long Rows { get; private set; }

    /// <summary>Adds to <paramref name="rows"/> every row that ends in <paramref name="piece"/>; true once the trailer is read.</summary>
    public bool Decode(ReadOnlySpan<byte> piece, List<User> rows)
    {
        var at = 0;
        if (_cutField is not null)
        {
            ContinueCutField(piece, ref at, rows);
        }

        while (true)
        {
            switch (_framing.Next(piece, ref at, out var bytes))
            {
                case BinaryCopyFraming.Token.More:
                    return false;
                case BinaryCopyFraming.Token.Trailer:
                    return true;
                case BinaryCopyFraming.Token.Fault:
                    throw new SourceStreamException(_framing.Fault!);
                case BinaryCopyFraming.Token.Field:
                    if (bytes.Length == _framing.FieldLength)
                    {
                        Store(bytes, rows);
                    }
                    else
                    {
                        StartCutField(bytes); // or a NULL
                    }

                    break;
            }
        }
    }

    private void CheckLength()
    {
        var length = _framing.FieldLength;
        var column = ColumnNames[_framing.Field];
        if (length == -1)
        {
            throw new SourceStreamException($"COPY tuple {_framing.Tuple:N0}: {column} is NULL, but the column is NOT NULL.");
        }

        var expected = FixedLengths[_framing.Field];
        if (expected >= 0 && length != expected)
        {
            throw new SourceStreamException($"COPY tuple {_framing.Tuple:N0}: {column} has length {length}; expected {expected}.");
        }
    }

    /// <summary>A field that goes on in the next piece: checked now (a NULL ends here), decoded once whole.</summary>
    private void StartCutField(ReadOnlySpan<byte> bytes)
    {
        CheckLength();
        _cutField = ArrayPool<byte>.Shared.Rent(_framing.FieldLength);
        bytes.CopyTo(_cutField);
        _cutFieldRead = bytes.Length;
    }

    private void ContinueCutField(ReadOnlySpan<byte> piece, ref int at, List<User> rows)
    {
        var bytes = _framing.TakeFieldBytes(piece, ref at);
        bytes.CopyTo(_cutField.AsSpan(_cutFieldRead));
        _cutFieldRead += bytes.Length;
        if (_cutFieldRead == _framing.FieldLength)
        {
            Store(_cutField.AsSpan(0, _cutFieldRead), rows);
            ReturnCutField();
        }
    }

    /// <summary>Decodes a whole field (the framing has refused negative lengths but -1; the fixed widths are checked here).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Store(ReadOnlySpan<byte> bytes, List<User> rows)
    {
        var field = _framing.Field;
        if (FixedLengths[field] >= 0 && bytes.Length != FixedLengths[field])
        {
            CheckLength();
        }

        switch (field)
        {
            case 0: _id = new Guid(bytes, bigEndian: true); break;
            case 1: _name = Encoding.UTF8.GetString(bytes); break;
            case 2: _patronymic = Encoding.UTF8.GetString(bytes); break;
            case 3: _surname = Encoding.UTF8.GetString(bytes); break;
            case 4: _micros = BinaryPrimitives.ReadInt64BigEndian(bytes); break;
            default:
                rows.Add(new User
                {
                    Id = _id,
                    Name = _name,
                    Patronymic = _patronymic,
                    Surname = _surname,
                    CreatedAt = CreatedAt(_micros, _id),
                    IsActive = bytes[0] != 0,
                });
                Rows++;
                break;
        }
    }

    /// <summary>
    /// .NET's DateTime holds years 1–9999; PostgreSQL's timestamp holds 4713 BC–294276 AD and ±infinity. ±infinity
    /// become DateTime.MaxValue/MinValue, as Npgsql's default mapping reads them and writes them back. The value that
    /// mapping cannot tell apart (0001-01-01 00:00:00, which would be written back as -infinity) and anything outside
    /// 1–9999 are refused with their row, never clamped or mapped.
    /// </summary>
    internal static DateTime CreatedAt(long micros, Guid id) => micros switch
    {
        long.MaxValue => DateTime.MaxValue,
        long.MinValue => DateTime.MinValue,
        > MinMicros and <= MaxMicros => new DateTime(PostgresEpochTicks + micros * TimeSpan.TicksPerMicrosecond, DateTimeKind.Unspecified),
        _ => throw new SourceStreamException(
            $"row {id}: created_at = {PostgresTimestamp.Format(micros)} cannot be carried by a parsed COPY row: .NET's DateTime holds years 1–9999, " +
            "and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity. Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged."),
    };

    private void ReturnCutField()
    {
        if (_cutField is not null)
        {
            ArrayPool<byte>.Shared.Return(_cutField);
            _cutField = null;
        }
    }

    public void Dispose() => ReturnCutField();
}
