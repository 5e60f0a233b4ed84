using System.Globalization;

namespace SomeService.Fetch;

/// <summary>
/// PostgreSQL's text form of a binary timestamp (microseconds since 2000-01-01), for the values .NET cannot hold,
/// so an error shows the value as the database shows it: "infinity", "294276-12-31 23:59:59.999999",
/// "4713-11-24 00:00:00 BC". Proleptic Gregorian calendar, as PostgreSQL uses.
/// </summary>
public static class PostgresTimestamp
{
    private const long MicrosPerDay = 86_400_000_000L;

    /// <summary>Days from 0000-03-01 to 2000-01-01 in the proleptic Gregorian calendar (year 0 = 1 BC).</summary>
    private const long EpochDaysFromYear0March = 730_425;

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

        // Days since 0000-03-01 → civil date (an era is 400 years = 146,097 days; March-based years put Feb 29 last).
        var z = days + EpochDaysFromYear0March;
        var era = (z >= 0 ? z : z - 146_096) / 146_097;
        var dayOfEra = z - era * 146_097;
        var yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        var dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        var monthIndex = (5 * dayOfYear + 2) / 153;
        var day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        var month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        var year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);

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
}
