using SyncData.Model.Generated;
using SomeService.Fetch;

namespace SomeService.Tables.Generated;

/// <summary>
/// The base of a COPY decoder generated for a described table (<see cref="RowClassSource"/>): the generated subclass
/// decodes each column into its property; this turns each value the property's CLR type cannot hold into an error
/// naming the row (its COPY tuple and the key decoded so far), the column and the value, as the orders' decoder does.
/// </summary>
public abstract class GeneratedCopyDecoder<TRow>(string table, string[] columns, int[] fixedLengths, bool[] nullable)
    : CopyRowDecoder<TRow>(columns, fixedLengths, nullable)
{
    private const string OnlyRawRelays = "Only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged.";

    /// <summary>The row's key columns decoded so far, "name = value, …", for an error.</summary>
    protected abstract string KeySoFar { get; }

    protected decimal Decimal(ReadOnlySpan<byte> bytes, string column) =>
        PostgresNumeric.ToDecimal(bytes) ?? throw Refused(column, PostgresNumeric.Format(bytes),
            ".NET's decimal holds a 96-bit integer over a power of ten up to 28: no NaN, no ±Infinity, at most 28 decimal places, about 28-29 significant digits");

    protected DateTime Timestamp(long micros, string column, DateTimeKind kind) =>
        PostgresTimestamp.ToDateTime(micros, kind) ?? throw Refused(column, PostgresTimestamp.Format(micros) + (kind == DateTimeKind.Utc ? "+00" : ""),
            ".NET's DateTime holds years 1–9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity");

    protected DateOnly Date(int days, string column) =>
        PostgresTimestamp.ToDateOnly(days) ?? throw Refused(column, PostgresTimestamp.FormatDate(days),
            ".NET's DateOnly holds 0001-01-01 to 9999-12-31, and those two are DateOnly.MinValue/MaxValue, which Npgsql writes as -infinity/infinity");

    protected TimeOnly Time(long micros, string column) =>
        PostgresFields.Time(micros) ?? throw Refused(column, PostgresFields.FormatTime(micros), ".NET's TimeOnly holds 00:00 to 23:59:59.9999999, not 24:00");

    protected string Jsonb(ReadOnlySpan<byte> bytes, string column) =>
        PostgresFields.Jsonb(bytes) ?? throw new SourceStreamException($"COPY tuple {Tuple:N0}: {column} is not jsonb of version 1 (first byte {PostgresFields.JsonbVersion(bytes)}).");

    protected string?[] TextArray(ReadOnlySpan<byte> bytes, string column) =>
        PostgresFields.TextArray(bytes, out var shape) ?? throw Refused(column, shape, "string?[] holds one dimension from 1");

    private const string FoldsDays = "NodaTime's Period, which Npgsql writes interval from, folds the time into days of 24 hours and the days into " +
        "the time's sign ('1 day -1 hour' would be written back as 23:00), where PostgreSQL keeps days and time apart";

    /// <summary>
    /// PostgreSQL's interval (microseconds, days, months, each kept apart: a month is no fixed number of days, nor a day
    /// of hours) as NodaTime's Period, built as Npgsql's NodaTime plugin reads one; kept only when Npgsql's writer gives
    /// back the same three (Period normalizes days and time together), else refused by row, column and value.
    /// </summary>
    protected NodaTime.Period Interval(ReadOnlySpan<byte> bytes, string column)
    {
        var micros = System.Buffers.Binary.BinaryPrimitives.ReadInt64BigEndian(bytes);
        var days = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[8..]);
        var months = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[12..]);
        var value = $"{months} months {days} days {micros} microseconds";
        if (micros is > long.MaxValue / 1000 or < long.MinValue / 1000)
        {
            throw Refused(column, value, "NodaTime's Period holds its time part in nanoseconds as a long, about ±292 years");
        }

        NodaTime.Period period;
        try
        {
            period = new NodaTime.PeriodBuilder { Years = months / 12, Months = months % 12, Days = days, Nanoseconds = micros * 1000 }.Build().Normalize();
        }
        catch (OverflowException)
        {
            throw Refused(column, value, FoldsDays);
        }

        return WrittenBack(period) == (months, days, micros) ? period : throw Refused(column, value, FoldsDays);
    }

    /// <summary>What Npgsql's NodaTime plugin writes a Period as (its PeriodConverter): months, days, microseconds.</summary>
    private static (int Months, int Days, long Micros) WrittenBack(NodaTime.Period p) =>
        ((p.Years * 12) + p.Months, (p.Weeks * 7) + p.Days, ((((((p.Hours * 60) + p.Minutes) * 60) + p.Seconds) * 1000) + p.Milliseconds) * 1000 + (p.Nanoseconds / 1000));

    /// <summary>inet_send's layout: family, bits of the netmask, is-cidr, address length, the address; as NpgsqlInet, the netmask kept.</summary>
    protected static NpgsqlTypes.NpgsqlInet Inet(ReadOnlySpan<byte> bytes) => new(new System.Net.IPAddress(bytes[4..(4 + bytes[3])]), bytes[1]);

    /// <summary>cidr_send's layout (inet's): as .NET's IPNetwork, its prefix the netmask's bits (cidr has no bits set past them).</summary>
    protected static System.Net.IPNetwork Cidr(ReadOnlySpan<byte> bytes) => new(new System.Net.IPAddress(bytes[4..(4 + bytes[3])]), bytes[1]);

    /// <summary>money's binary form (cash_send: an int64 of hundredths) as decimal, as Npgsql reads it and writes it back (times 100).</summary>
    protected static decimal Money(ReadOnlySpan<byte> bytes) => System.Buffers.Binary.BinaryPrimitives.ReadInt64BigEndian(bytes) / 100m;

    /// <summary>bit and varbit's binary form (the length in bits, then the bits, the first in each byte's high bit) as BitArray (whose bit 0 is a byte's low bit).</summary>
    protected static System.Collections.BitArray Bits(ReadOnlySpan<byte> bytes)
    {
        var bits = new System.Collections.BitArray(System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes));
        for (var i = 0; i < bits.Length; i++)
        {
            bits[i] = (bytes[4 + (i / 8)] & (0x80 >> (i % 8))) != 0;
        }

        return bits;
    }

    /// <summary>Reads one array element or range bound, the bytes of its value alone.</summary>
    protected delegate T ElementReader<out T>(ReadOnlySpan<byte> bytes);

    /// <summary>
    /// array_send's layout (dimensions, a NULL flag, the element type, each dimension's length and lower bound, then each
    /// element's length, -1 for NULL, and bytes) as T?[]: one dimension from 1 (or none, empty), as every library's
    /// array type holds it; any other shape refused by row, column and value.
    /// </summary>
    protected T[] ArrayOf<T>(ReadOnlySpan<byte> bytes, string column, ElementReader<T> read)
    {
        var dimensions = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes);
        if (dimensions == 0)
        {
            return [];
        }

        var length = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[12..]);
        var lowerBound = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[16..]);
        if (dimensions != 1 || lowerBound != 1)
        {
            throw Refused(column, $"an array of {dimensions} dimension(s), the first from {lowerBound}", "a .NET array holds one dimension from 0, which Npgsql writes from 1");
        }

        var elements = new T[length];
        var at = 20;
        for (var i = 0; i < length; i++)
        {
            var size = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[at..]);
            at += 4;
            if (size >= 0)
            {
                elements[i] = read(bytes.Slice(at, size));
                at += size;
            }
        }

        return elements;
    }

    /// <summary>range_send's layout (a flags byte, then each finite bound's length and bytes) as NpgsqlRange&lt;T&gt;, the flags kept as Npgsql writes them back: empty, inclusive, infinite.</summary>
    protected static NpgsqlTypes.NpgsqlRange<T> RangeOf<T>(ReadOnlySpan<byte> bytes, ElementReader<T> read)
    {
        const byte Empty = 0x01, LowerInclusive = 0x02, UpperInclusive = 0x04, LowerInfinite = 0x08, UpperInfinite = 0x10;
        var flags = bytes[0];
        if ((flags & Empty) != 0)
        {
            return NpgsqlTypes.NpgsqlRange<T>.Empty;
        }

        var at = 1;
        T lower = default!, upper = default!;
        if ((flags & LowerInfinite) == 0)
        {
            lower = Bound(bytes, ref at, read);
        }

        if ((flags & UpperInfinite) == 0)
        {
            upper = Bound(bytes, ref at, read);
        }

        return new(lower, (flags & LowerInclusive) != 0, (flags & LowerInfinite) != 0, upper, (flags & UpperInclusive) != 0, (flags & UpperInfinite) != 0);
    }

    /// <summary>multirange_send's layout (the count, then each range's length and range_send bytes) as NpgsqlRange&lt;T&gt;[].</summary>
    protected static NpgsqlTypes.NpgsqlRange<T>[] MultirangeOf<T>(ReadOnlySpan<byte> bytes, ElementReader<T> read)
    {
        var ranges = new NpgsqlTypes.NpgsqlRange<T>[System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes)];
        var at = 4;
        for (var i = 0; i < ranges.Length; i++)
        {
            var size = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[at..]);
            ranges[i] = RangeOf(bytes.Slice(at + 4, size), read);
            at += 4 + size;
        }

        return ranges;
    }

    private static T Bound<T>(ReadOnlySpan<byte> bytes, ref int at, ElementReader<T> read)
    {
        var size = System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(bytes[at..]);
        var value = read(bytes.Slice(at + 4, size));
        at += 4 + size;
        return value;
    }

    /// <summary>An enum's label as the generated CLR enum's value (a label added to the type after the class was generated is refused).</summary>
    protected TEnum Label<TEnum>(ReadOnlySpan<byte> bytes, string column, Dictionary<string, TEnum> labels)
        where TEnum : struct, Enum
    {
        var label = System.Text.Encoding.UTF8.GetString(bytes);
        return labels.TryGetValue(label, out var value)
            ? value
            : throw Refused(column, $"'{label}'", $"{typeof(TEnum).Name} has no value for the label (values: {string.Join(", ", labels.Keys)})");
    }

    /// <summary>
    /// tsquery as Npgsql's NpgsqlTsQuery; an empty one is refused by row, column and value: PostgreSQL 15's tsqueryrecv
    /// refuses the empty tsquery its own tsquerysend writes, and every writer sends tsquery in binary.
    /// </summary>
    protected NpgsqlTypes.NpgsqlTsQuery TsQuery(ReadOnlySpan<byte> bytes, string column)
    {
        var query = PostgresTextSearch.TsQuery(bytes);
        return query.Kind != NpgsqlTypes.NpgsqlTsQuery.NodeKind.Empty ? query
            : throw Refused(column, "'' (an empty tsquery)", "PostgreSQL 15's tsqueryrecv refuses the empty tsquery its own tsquerysend writes " +
                "(\"malformed tsquery: operand not found\"), and every writer sends tsquery in binary (COPY's binary format, Npgsql's parameters)",
                "No binary COPY carries it, the raw relays' neither.");
    }

    private SourceStreamException Refused(string column, string value, string why, string carriers = OnlyRawRelays) =>
        new($"row {Tuple:N0} of the COPY{(KeySoFar.Length > 0 ? $" ({KeySoFar})" : "")}: {column} = {value} cannot be carried by a parsed COPY row " +
            $"(SomeService's reader, into the class generated for {table} every writer library is handed): {why}. {carriers}");
}
