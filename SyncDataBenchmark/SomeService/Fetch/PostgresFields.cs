using System.Buffers.Binary;
using System.Text;

namespace SomeService.Fetch;

/// <summary>
/// PostgreSQL's binary forms of jsonb, text[] and time as .NET holds them, shared by the hand-written orders decoder and
/// the decoders generated for a described table: null where the value cannot be held, for the caller to refuse by row.
/// </summary>
public static class PostgresFields
{
    private const long MicrosPerDay = 86_400_000_000L;

    /// <summary>jsonb's binary form: a version byte (1), then the document's text; null for any other version.</summary>
    public static string? Jsonb(ReadOnlySpan<byte> bytes) =>
        bytes.Length > 0 && bytes[0] == 1 ? Encoding.UTF8.GetString(bytes[1..]) : null;

    /// <summary>The first byte of a jsonb field, for the error that refuses its version (-1: empty).</summary>
    public static int JsonbVersion(ReadOnlySpan<byte> bytes) => bytes.Length > 0 ? bytes[0] : -1;

    /// <summary>
    /// An array's binary form: dimensions, a has-NULLs flag, the element type, each dimension's length and lower bound,
    /// then each element as a length (-1: NULL) and its bytes. string?[] holds one dimension from 1, or none (empty);
    /// for any other shape null, with <paramref name="shape"/> saying what it was.
    /// </summary>
    public static string?[]? TextArray(ReadOnlySpan<byte> bytes, out string shape)
    {
        shape = "";
        var dimensions = BinaryPrimitives.ReadInt32BigEndian(bytes);
        if (dimensions == 0)
        {
            return [];
        }

        var length = BinaryPrimitives.ReadInt32BigEndian(bytes[12..]);
        var lowerBound = BinaryPrimitives.ReadInt32BigEndian(bytes[16..]);
        if (dimensions != 1 || lowerBound != 1)
        {
            shape = $"an array of {dimensions} dimension(s), the first from {lowerBound}";
            return null;
        }

        var elements = new string?[length];
        var at = 20;
        for (var i = 0; i < length; i++)
        {
            var size = BinaryPrimitives.ReadInt32BigEndian(bytes[at..]);
            at += 4;
            if (size >= 0)
            {
                elements[i] = Encoding.UTF8.GetString(bytes.Slice(at, size));
                at += size;
            }
        }

        return elements;
    }

    /// <summary>time's binary form (microseconds since midnight) as a TimeOnly, or null for 24:00:00, which TimeOnly (up to 23:59:59.9999999) cannot hold.</summary>
    public static TimeOnly? Time(long micros) =>
        micros is >= 0 and < MicrosPerDay ? new TimeOnly(micros * TimeSpan.TicksPerMicrosecond) : null;

    /// <summary>A binary time as PostgreSQL prints it.</summary>
    public static string FormatTime(long micros) =>
        micros == MicrosPerDay ? "24:00:00" : PostgresTimestamp.Format(micros).Split(' ')[1];
}
