using System.CommandLine.Parsing;
using System.Globalization;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// The runner's own value parsers. Each bad value becomes one error line naming the option, the value and what is
/// accepted; System.CommandLine's typed parsing would instead leave validators reading a value that never parsed
/// (an unhandled exception with a stack trace).
/// </summary>
public static class OptionParsing
{
    /// <summary>"a whole number from 1 to 2,147,483,647", as the errors and the help say it.</summary>
    public static string WholeNumber(long min, long max) =>
        string.Create(CultureInfo.InvariantCulture, $"a whole number from {min:N0} to {max:N0}");

    /// <summary>
    /// Comma-separated whole numbers, each from <paramref name="min"/> to <paramref name="max"/>, digits only (no
    /// sign, exponent, separators or spaces inside a number). Written for lists so that a sweep option (e.g.
    /// --rows 100000,1000000) needs only its caller to accept more than one.
    /// </summary>
    public static bool TryParseNumbers(string text, long min, long max, out IReadOnlyList<long> numbers)
    {
        var parsed = new List<long>();
        numbers = parsed;
        if (string.IsNullOrWhiteSpace(text))
        {
            return false;
        }

        foreach (var part in text.Split(','))
        {
            if (!long.TryParse(part.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out var number) || number < min || number > max)
            {
                return false;
            }

            parsed.Add(number);
        }

        return true;
    }

    /// <summary>A duration as seconds: "60s", "2m", "1h" or bare seconds, whole, from <paramref name="min"/> to <paramref name="max"/> seconds; or an error naming option, value and range.</summary>
    public static double? Duration(ArgumentResult result, string option, long min, long max)
    {
        var text = Text(result).Trim();
        var (digits, unit) = text.Length > 0 && char.IsLetter(text[^1]) ? (text[..^1], char.ToLowerInvariant(text[^1])) : (text, 's');
        long? factor = unit switch { 's' => 1, 'm' => 60, 'h' => 3600, _ => null };
        if (factor is { } f && TryParseNumbers(digits, 1, max, out var numbers) && numbers.Count == 1 && numbers[0] * f >= min && numbers[0] * f <= max)
        {
            return numbers[0] * f;
        }

        result.AddError(Invalid(option, text, $"a duration from {min} s to {max / 3600} h, as 60s, 2m or 1h"));
        return null;
    }

    /// <summary>One whole number in range, or an error naming option, value and range.</summary>
    public static long? Number(ArgumentResult result, string option, long min, long max)
    {
        var text = Text(result);
        if (TryParseNumbers(text, min, max, out var numbers) && numbers.Count == 1)
        {
            return numbers[0];
        }

        result.AddError(Invalid(option, text, WholeNumber(min, max)));
        return null;
    }

    /// <summary>
    /// One or more comma-separated whole numbers in range, each named once, returned ascending; or an error naming
    /// option, value and range.
    /// </summary>
    public static long[]? Sizes(ArgumentResult result, string option, long min, long max)
    {
        var text = Text(result);
        if (TryParseNumbers(text, min, max, out var numbers) && numbers.Distinct().Count() == numbers.Count)
        {
            return numbers.Order().ToArray();
        }

        result.AddError(Invalid(option, text, $"one or more comma-separated sizes, each named once, each {WholeNumber(min, max)}"));
        return null;
    }

    /// <summary>
    /// One or more comma-separated shares of the rows (ChangedShare: "1%" or "0.01", 0 &lt; share ≤ 100%), each named once,
    /// returned ascending; or an error naming option, value and what is accepted.
    /// </summary>
    public static double[]? Shares(ArgumentResult result, string option)
    {
        var text = Text(result);
        var shares = text.Split(',').Select(ChangedShare.Parse).ToList();
        if (!string.IsNullOrWhiteSpace(text) && shares.All(s => s is not null) && shares.Distinct().Count() == shares.Count)
        {
            return shares.Select(s => s!.Value).Order().ToArray();
        }

        result.AddError(Invalid(option, text, "one or more comma-separated shares of the rows, each named once, each above 0 and at most 100% (e.g. 0.1%,1%,10% or 0.01)"));
        return null;
    }

    /// <summary>One share ("5%" or "0.05", 0 &lt; share ≤ 100%), or an error naming option, value and what is accepted.</summary>
    public static double? Share(ArgumentResult result, string option)
    {
        var text = Text(result);
        if (ChangedShare.Parse(text) is { } share)
        {
            return share;
        }

        result.AddError(Invalid(option, text, "a share above 0 and at most 100% (e.g. 5% or 0.05)"));
        return null;
    }

    /// <summary>A directory holding a results.json that the runner can write next to.</summary>
    public static DirectoryInfo? RecordDirectory(ArgumentResult result, string option)
    {
        var directory = WritableDirectory(result, option);
        if (directory is not null && !File.Exists(Path.Combine(directory.FullName, Report.ResultsFile.FileName)))
        {
            result.AddError($"{option}: '{Text(result)}' has no {Report.ResultsFile.FileName}: give the --out directory of an earlier run.");
            return null;
        }

        return directory;
    }

    /// <summary>--readme: a page that exists; its blocks and their records are checked when it is rendered.</summary>
    public static FileInfo? ExistingPage(ArgumentResult result, string option)
    {
        var page = new FileInfo(Text(result));
        if (!page.Exists)
        {
            result.AddError($"{option}: '{Text(result)}' is not a file: give the page whose generated blocks to render again, e.g. README.md.");
            return null;
        }

        return page;
    }

    /// <summary>
    /// A directory the runner can write into, checked before any work starts and without creating anything: it
    /// exists as a directory, or its nearest existing parent is a directory that accepts a new file.
    /// </summary>
    public static DirectoryInfo? WritableDirectory(ArgumentResult result, string option)
    {
        var text = Text(result);
        const string accepted = "a directory that exists or can be created, and is writable";
        if (string.IsNullOrWhiteSpace(text))
        {
            result.AddError(Invalid(option, text, accepted));
            return null;
        }

        string full;
        try
        {
            full = Path.GetFullPath(text);
        }
        catch (Exception ex) when (ex is ArgumentException or NotSupportedException or PathTooLongException)
        {
            result.AddError(Invalid(option, text, accepted));
            return null;
        }

        if (WhyNotWritable(full) is { } why)
        {
            result.AddError($"{option}: '{text}' is not valid ({why}): {accepted}.");
            return null;
        }

        return new DirectoryInfo(full);
    }

    private static string? WhyNotWritable(string path)
    {
        if (File.Exists(path))
        {
            return "it is a file";
        }

        var existing = path;
        while (!Directory.Exists(existing))
        {
            if (File.Exists(existing))
            {
                return $"{existing} is a file";
            }

            existing = Path.GetDirectoryName(existing);
            if (existing is null)
            {
                return "no part of it exists";
            }
        }

        // Permissions alone do not tell (root, read-only mounts, /proc): try what the runner will do, a new file.
        var probe = Path.Combine(existing, $".syncdata-write-probe-{Environment.ProcessId}");
        try
        {
            using (File.Create(probe, 1, FileOptions.DeleteOnClose))
            {
            }

            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return $"cannot write in {existing}: {ex.Message}";
        }
    }

    /// <summary>An absolute http(s) URL, as a base address (ending in /).</summary>
    public static Uri? HttpUrl(ArgumentResult result, string option)
    {
        var text = Text(result);
        if (Uri.TryCreate(text.EndsWith('/') ? text : text + "/", UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https")
        {
            return uri;
        }

        result.AddError(Invalid(option, text, "an absolute http(s) URL, e.g. http://127.0.0.1:5180"));
        return null;
    }

    /// <summary>An Npgsql connection string that names a host.</summary>
    public static string? ConnectionString(ArgumentResult result)
    {
        var text = Text(result);
        try
        {
            if (!string.IsNullOrWhiteSpace(text) && !string.IsNullOrEmpty(new Npgsql.NpgsqlConnectionStringBuilder(text).Host))
            {
                return text;
            }
        }
        catch (ArgumentException)
        {
            // not a connection string: said below
        }

        result.AddError(Invalid((result.Parent as OptionResult)?.Option.Name ?? "--connection", text, "an Npgsql connection string, e.g. 'Host=127.0.0.1;Port=5432;Username=postgres;Password=postgres'"));
        return null;
    }

    /// <summary>Values given comma-separated, repeated, or both, as one list.</summary>
    public static List<string> List(IEnumerable<string> values) =>
        values.SelectMany(v => v.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).ToList();

    public static string Invalid(string option, string value, string accepted) => $"{option}: '{value}' is not valid: {accepted}.";

    private static string Text(ArgumentResult result) => string.Join(' ', result.Tokens.Select(t => t.Value));
}
