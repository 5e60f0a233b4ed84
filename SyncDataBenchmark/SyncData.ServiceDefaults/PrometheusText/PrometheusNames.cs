using System.Text;

namespace SyncData.ServiceDefaults.PrometheusText;

/// <summary>
/// OpenTelemetry instrument and attribute names turned into Prometheus metric and label names, following
/// OpenTelemetry's Prometheus-compatibility rules: characters outside [a-zA-Z0-9_:] become underscores, the unit is
/// appended as a word (s → seconds, By → bytes, {annotation} units dropped), monotonic sums end in _total, unit-1
/// gauges in _ratio. Like Prometheus 3's OTLP translation (UnderscoreEscapingWithSuffixes), names are handled as
/// underscore-separated words: repeated underscores collapse, a unit word already present is not repeated, and a
/// "total" word inside a counter's name moves to the end (dotnet.gc.heap.total_allocated, By, counter →
/// dotnet_gc_heap_allocated_bytes_total). So a scrape and an OTLP push give the same names, and one set of
/// dashboards serves both. One departure: a gauge whose name ends in a word Prometheus reserves for histogram and
/// counter samples (count, sum, bucket, total) gets a last word "value" (dotnet.timer.count → dotnet_timer_count_value).
/// </summary>
public static class PrometheusNames
{
    public enum Kind
    {
        Counter,
        Gauge,
        Histogram,
    }

    // UCUM units (as .NET and OpenTelemetry semantic conventions write them) → the Prometheus unit word.
    private static readonly Dictionary<string, string> Units = new(StringComparer.Ordinal)
    {
        ["d"] = "days", ["h"] = "hours", ["min"] = "minutes", ["s"] = "seconds",
        ["ms"] = "milliseconds", ["us"] = "microseconds", ["ns"] = "nanoseconds",
        ["By"] = "bytes", ["KiBy"] = "kibibytes", ["MiBy"] = "mebibytes", ["GiBy"] = "gibibytes", ["TiBy"] = "tebibytes",
        ["KBy"] = "kilobytes", ["MBy"] = "megabytes", ["GBy"] = "gigabytes", ["TBy"] = "terabytes",
        ["bit"] = "bits", ["m"] = "meters", ["V"] = "volts", ["A"] = "amperes", ["J"] = "joules", ["W"] = "watts",
        ["g"] = "grams", ["Cel"] = "celsius", ["Hz"] = "hertz", ["%"] = "percent",
    };

    // The denominator of a rate unit such as By/s → bytes_per_second.
    private static readonly Dictionary<string, string> PerUnits = new(StringComparer.Ordinal)
    {
        ["s"] = "second", ["m"] = "minute", ["h"] = "hour", ["d"] = "day", ["w"] = "week", ["mo"] = "month", ["y"] = "year",
    };

    /// <summary>The metric family name (without _bucket/_sum/_count, which histograms add per sample).</summary>
    public static string MetricName(string name, string? unit, Kind kind)
    {
        var words = Words(name);
        var (main, per) = UnitWords(unit);
        if (main.Length > 0 && !words.Contains(main))
        {
            words.Add(main);
        }

        if (per.Length > 0 && !words.Contains(per))
        {
            words.Add("per");
            words.Add(per);
        }

        if (kind == Kind.Counter)
        {
            words.RemoveAll(w => w == "total");
            words.Add("total");
        }

        if (unit == "1" && kind == Kind.Gauge)
        {
            words.RemoveAll(w => w == "ratio");
            words.Add("ratio");
        }

        // Prometheus keeps _count, _sum and _bucket for histogram samples and _total for counters; a gauge named like
        // that (dotnet.timer.count) would read as one of them, so it gets a neutral last word.
        if (kind == Kind.Gauge && words.Count > 0 && words[^1] is "count" or "sum" or "bucket" or "total")
        {
            words.Add("value");
        }

        var result = string.Join('_', words);
        if (result.Length == 0)
        {
            return "_";
        }

        // A metric name may not start with a digit.
        return char.IsAsciiDigit(result[0]) ? "_" + result : result;
    }

    /// <summary>An attribute key as a label name: [a-zA-Z_][a-zA-Z0-9_]*, never starting with "_" (reserved).</summary>
    public static string LabelName(string key)
    {
        if (key.Length == 0)
        {
            return "key_";
        }

        var builder = new StringBuilder(key.Length + 4);
        foreach (var c in key)
        {
            builder.Append(char.IsAsciiLetterOrDigit(c) || c == '_' ? c : '_');
        }

        var label = builder.ToString();
        if (char.IsAsciiDigit(label[0]))
        {
            return "key_" + label;
        }

        // Names beginning with "__" are Prometheus' own (__name__); a single leading "_" is kept apart from them too.
        return label[0] == '_' ? "key" + label : label;
    }

    private static List<string> Words(string name)
    {
        var words = new List<string>();
        var start = -1;
        for (var i = 0; i <= name.Length; i++)
        {
            var wordChar = i < name.Length && (char.IsAsciiLetterOrDigit(name[i]) || name[i] == ':');
            if (wordChar && start < 0)
            {
                start = i;
            }
            else if (!wordChar && start >= 0)
            {
                words.Add(name[start..i]);
                start = -1;
            }
        }

        return words;
    }

    private static (string Main, string Per) UnitWords(string? unit)
    {
        if (string.IsNullOrWhiteSpace(unit) || unit == "1")
        {
            return ("", "");
        }

        // Annotations in braces ({run}, {request}) describe what is counted, not a unit: dropped.
        var withoutAnnotations = new StringBuilder(unit.Length);
        var depth = 0;
        foreach (var c in unit)
        {
            if (c == '{')
            {
                depth++;
            }
            else if (c == '}' && depth > 0)
            {
                depth--;
            }
            else if (depth == 0)
            {
                withoutAnnotations.Append(c);
            }
        }

        var text = withoutAnnotations.ToString().Trim();
        var slash = text.IndexOf('/', StringComparison.Ordinal);
        var main = slash < 0 ? text : text[..slash];
        var per = slash < 0 ? "" : text[(slash + 1)..];
        main = main.Length == 0 || main == "1" ? "" : Units.TryGetValue(main, out var m) ? m : Clean(main);
        per = per.Length == 0 ? "" : PerUnits.TryGetValue(per, out var p) ? p : Units.TryGetValue(per, out var pu) ? pu : Clean(per);
        return (main, per);
    }

    private static string Clean(string unit)
    {
        // Units outside the table are kept as one word of letters and digits.
        var builder = new StringBuilder(unit.Length);
        foreach (var c in unit)
        {
            if (char.IsAsciiLetterOrDigit(c))
            {
                builder.Append(c);
            }
        }

        return builder.ToString();
    }
}
