using System.Globalization;

namespace SomeService.Fetch;

/// <summary>
/// PostgreSQL's binary timestamps and dates (microseconds and days since 2000-01-01) as .NET holds them, and their text
/// form for the values .NET cannot hold, so an error shows the value as the database shows it: "infinity",
/// "294276-12-31 23:59:59.999999", "4713-11-24 00:00:00 BC". Proleptic Gregorian calendar, as PostgreSQL uses.
/// </summary>
public static class PostgresTimestamp
{
    private const long MicrosPerDay = 86_400_000_000L;
    private const long PostgresEpochTicks = 630_822_816_000_000_000; // new DateTime(2000, 1, 1).Ticks
    private const long MinMicros = (0 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond; // DateTime.MinValue: 0001-01-01 00:00:00
    private const long MaxMicros = (3_155_378_975_999_999_999 - PostgresEpochTicks) / TimeSpan.TicksPerMicrosecond; // DateTime.MaxValue, to the microsecond
    private static readonly int EpochDayNumber = new DateOnly(2000, 1, 1).DayNumber;

    /// <summary>Days from 0000-03-01 to 2000-01-01 in the proleptic Gregorian calendar (year 0 = 1 BC).</summary>
    private const long EpochDaysFromYear0March = 730_425;

    /// <summary>
    /// .NET's DateTime holds years 1–9999; PostgreSQL's timestamp holds 4713 BC–294276 AD and ±infinity. ±infinity
    /// become DateTime.MaxValue/MinValue, as Npgsql's default mapping reads them and writes them back. The value that
    /// mapping cannot tell apart (0001-01-01 00:00:00, which would be written back as -infinity) and anything outside
    /// 1–9999 are null: the caller refuses them with their row, never clamped or mapped.
    /// </summary>
    public static DateTime? ToDateTime(long micros, DateTimeKind kind) => micros switch
    {
        long.MaxValue => DateTime.SpecifyKind(DateTime.MaxValue, kind),
        long.MinValue => DateTime.SpecifyKind(DateTime.MinValue, kind),
        > MinMicros and <= MaxMicros => new DateTime(PostgresEpochTicks + micros * TimeSpan.TicksPerMicrosecond, kind),
        _ => null,
    };

    /// <summary>
    /// The same for a date: ±infinity are DateOnly.MaxValue/MinValue as Npgsql maps them, so the dates those are
    /// (0001-01-01, 9999-12-31) and anything outside them are null.
    /// </summary>
    public static DateOnly? ToDateOnly(int days) => days switch
    {
        int.MaxValue => DateOnly.MaxValue,
        int.MinValue => DateOnly.MinValue,
        _ when (long)days + EpochDayNumber is var number && number > DateOnly.MinValue.DayNumber && number < DateOnly.MaxValue.DayNumber
            => DateOnly.FromDayNumber((int)number),
        _ => null,
    };

    public static string Format(long micros)
    {
        if (micros == long.MaxValue)
        {
            return "infinity";
        }

        if (micros == long.MinValue)
        {
            return "-infinity";
        }

        var days = Math.DivRem(micros, MicrosPerDay, out var timeOfDay);
        if (timeOfDay < 0)
        {
            timeOfDay += MicrosPerDay;
            days--;
        }

        var (year, month, day) = CivilFromDays(days);
        var seconds = timeOfDay / 1_000_000;
        var fraction = timeOfDay % 1_000_000;
        var text = string.Create(CultureInfo.InvariantCulture,
            $"{(year <= 0 ? 1 - year : year):0000}-{month:00}-{day:00} {seconds / 3600:00}:{seconds / 60 % 60:00}:{seconds % 60:00}");
        if (fraction != 0)
        {
            text += "." + fraction.ToString("000000", CultureInfo.InvariantCulture).TrimEnd('0');
        }

        return year <= 0 ? text + " BC" : text;
    }

    /// <summary>A binary date (days since 2000-01-01) as PostgreSQL prints it (ISO DateStyle).</summary>
    public static string FormatDate(int days)
    {
        if (days is int.MaxValue or int.MinValue)
        {
            return days == int.MaxValue ? "infinity" : "-infinity";
        }

        var (year, month, day) = CivilFromDays(days);
        var text = string.Create(CultureInfo.InvariantCulture, $"{(year <= 0 ? 1 - year : year):0000}-{month:00}-{day:00}");
        return year <= 0 ? text + " BC" : text;
    }

    /// <summary>Days since 2000-01-01 → civil date (an era is 400 years = 146,097 days; March-based years put Feb 29 last).</summary>
    private static (long Year, long Month, long Day) CivilFromDays(long days)
    {
        var z = days + EpochDaysFromYear0March;
        var era = (z >= 0 ? z : z - 146_096) / 146_097;
        var dayOfEra = z - era * 146_097;
        var yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        var dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        var monthIndex = (5 * dayOfYear + 2) / 153;
        var day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        var month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        var year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return (year, month, day);
    }
}
