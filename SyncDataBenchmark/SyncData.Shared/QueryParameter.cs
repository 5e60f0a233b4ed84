using System.Globalization;

namespace SyncData.Shared;

/// <summary>Query-string values in both services' APIs: what a validation error echoes, and whole numbers in a range.</summary>
public static class QueryParameter
{
    /// <summary>At most 64 characters of a value, for an error message: echoing a 100 KB query string back would make the error the attack.</summary>
    public static string Truncate(string value) => value.Length <= 64 ? value : value[..64] + "…";

    /// <summary>
    /// A whole number (digits only) from <paramref name="min"/> to <paramref name="max"/>; otherwise false, and an error
    /// under <paramref name="name"/> naming the range (and <paramref name="note"/>, such as the default).
    /// </summary>
    public static bool TryParseWholeNumber(string value, string name, long min, long max, Dictionary<string, string[]> errors, out long number, string note = "")
    {
        if (long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out number) && number >= min && number <= max)
        {
            return true;
        }

        errors[name] = [$"'{Truncate(value)}' is not valid for '{name}': a whole number from {min} to {max}{note}."];
        return false;
    }
}
