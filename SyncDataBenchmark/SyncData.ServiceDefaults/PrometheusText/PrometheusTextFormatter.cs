using System.Buffers;
using System.Globalization;
using System.Text;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;

namespace SyncData.ServiceDefaults.PrometheusText;

/// <summary>
/// Writes OpenTelemetry metrics in the Prometheus text exposition format, version 0.0.4: per family a HELP and a TYPE
/// line, then one line per sample, <c>name{label="value",...} value</c>; histograms as cumulative
/// <c>_bucket{le="..."}</c> lines ending in <c>le="+Inf"</c>, then <c>_sum</c> and <c>_count</c>; no timestamps (the
/// scraper stamps the scrape). Written by hand from the format's specification because no Prometheus exporter package
/// restores from this lab's registry. It runs on every scrape inside the measured services, so it reuses one buffer
/// and caches names and headers per instrument instead of building strings per sample.
/// </summary>
public sealed class PrometheusTextFormatter
{
    public const string ContentType = "text/plain; version=0.0.4; charset=utf-8";

    private static readonly byte[] InfBound = "+Inf"u8.ToArray();
    private static readonly byte[] ScopeLabel = "otel_scope_name"u8.ToArray();

    private readonly ArrayBufferWriter<byte> _out = new(64 * 1024);
    private readonly Dictionary<Metric, Family?> _families = new(ReferenceEqualityComparer.Instance);
    private readonly Dictionary<string, byte[]> _labelsByKey = new(StringComparer.Ordinal);
    private readonly Dictionary<string, byte[]> _labelsByName = new(StringComparer.Ordinal);
    private readonly List<(Metric Metric, Family Family)> _scrape = [];
    private readonly List<byte[]> _pointLabels = [];
    private byte[]? _targetInfo;

    /// <summary>The text written since the last <see cref="Begin"/>.</summary>
    public ReadOnlyMemory<byte> Written => _out.WrittenMemory;

    private sealed record Family(string Name, byte[] NameBytes, PrometheusNames.Kind Kind, byte[] Header);

    /// <summary>Starts a new exposition with <c>target_info</c>: the resource's attributes (service name, instance) as labels.</summary>
    public void Begin(Resource? resource)
    {
        _out.ResetWrittenCount();
        if (resource is null)
        {
            return;
        }

        if (_targetInfo is null)
        {
            var start = _out.WrittenCount;
            Write("# HELP target_info Target metadata\n# TYPE target_info gauge\ntarget_info"u8);
            var first = true;
            foreach (var (key, value) in resource.Attributes.OrderBy(a => a.Key, StringComparer.Ordinal))
            {
                Write(first ? "{"u8 : ","u8);
                first = false;
                Write(LabelBytes(key));
                Write("=\""u8);
                WriteLabelValue(value);
                Write("\""u8);
            }

            Write(first ? " 1\n"u8 : "} 1\n"u8);
            _targetInfo = _out.WrittenSpan[start..].ToArray();
            return;
        }

        Write(_targetInfo);
    }

    /// <summary>Appends every metric of <paramref name="batch"/>; instruments that map to one name share one family.</summary>
    public void Write(in Batch<Metric> batch)
    {
        _scrape.Clear();
        foreach (var metric in batch)
        {
            if (FamilyOf(metric) is { } family && HasPoints(metric))
            {
                _scrape.Add((metric, family));
            }
        }

        for (var i = 0; i < _scrape.Count; i++)
        {
            var (metric, family) = _scrape[i];
            if (IndexOfName(family.Name, 0, i) >= 0)
            {
                continue; // written with the first instrument of that name
            }

            // Two instruments (of different meters) with one Prometheus name: one family, told apart by otel_scope_name.
            var shared = IndexOfName(family.Name, i + 1, _scrape.Count) >= 0;
            Write(family.Header);
            WriteSamples(metric, family, shared);
            for (var j = i + 1; j < _scrape.Count; j++)
            {
                // A same-named instrument of another kind cannot join this family (one TYPE per name): left out.
                if (_scrape[j].Family.Name == family.Name && _scrape[j].Family.Kind == family.Kind)
                {
                    WriteSamples(_scrape[j].Metric, family, shared);
                }
            }
        }

        _scrape.Clear();
    }

    private int IndexOfName(string name, int from, int to)
    {
        for (var k = from; k < to; k++)
        {
            if (_scrape[k].Family.Name == name)
            {
                return k;
            }
        }

        return -1;
    }

    private static bool HasPoints(Metric metric)
    {
        foreach (ref readonly var _ in metric.GetMetricPoints())
        {
            return true;
        }

        return false;
    }

    private Family? FamilyOf(Metric metric)
    {
        if (_families.TryGetValue(metric, out var cached))
        {
            return cached;
        }

        PrometheusNames.Kind? kind = metric.MetricType switch
        {
            MetricType.LongSum or MetricType.DoubleSum => PrometheusNames.Kind.Counter,
            MetricType.LongSumNonMonotonic or MetricType.DoubleSumNonMonotonic or MetricType.LongGauge or MetricType.DoubleGauge => PrometheusNames.Kind.Gauge,
            MetricType.Histogram => PrometheusNames.Kind.Histogram,
            _ => null, // exponential histograms have no 0.0.4 text form; this lab's views never produce them
        };
        Family? family = null;
        if (kind is { } k)
        {
            var name = PrometheusNames.MetricName(metric.Name, metric.Unit, k);
            var help = string.IsNullOrWhiteSpace(metric.Description)
                ? (string.IsNullOrEmpty(metric.Unit) ? metric.Name : $"{metric.Name} ({metric.Unit})")
                : metric.Description;
            var type = k switch
            {
                PrometheusNames.Kind.Counter => "counter",
                PrometheusNames.Kind.Histogram => "histogram",
                _ => "gauge",
            };
            var header = $"# HELP {name} {EscapeHelp(help)}\n# TYPE {name} {type}\n";
            family = new Family(name, Encoding.UTF8.GetBytes(name), k, Encoding.UTF8.GetBytes(header));
        }

        _families[metric] = family;
        return family;
    }

    private void WriteSamples(Metric metric, Family family, bool withScope)
    {
        var isDouble = metric.MetricType is MetricType.DoubleSum or MetricType.DoubleSumNonMonotonic or MetricType.DoubleGauge;
        foreach (ref readonly var point in metric.GetMetricPoints())
        {
            var scope = withScope ? metric.MeterName : null;
            switch (family.Kind)
            {
                case PrometheusNames.Kind.Histogram:
                    long cumulative = 0;
                    foreach (var bucket in point.GetHistogramBuckets())
                    {
                        cumulative += bucket.BucketCount;
                        Write(family.NameBytes);
                        Write("_bucket"u8);
                        WriteLabels(point.Tags, scope, le: bucket.ExplicitBound);
                        WriteLong(cumulative);
                    }

                    Write(family.NameBytes);
                    Write("_sum"u8);
                    WriteLabels(point.Tags, scope, le: null);
                    WriteDouble(point.GetHistogramSum());
                    Write(family.NameBytes);
                    Write("_count"u8);
                    WriteLabels(point.Tags, scope, le: null);
                    WriteLong(point.GetHistogramCount());
                    break;
                case PrometheusNames.Kind.Counter:
                    Write(family.NameBytes);
                    WriteLabels(point.Tags, scope, le: null);
                    if (isDouble)
                    {
                        WriteDouble(point.GetSumDouble());
                    }
                    else
                    {
                        WriteLong(point.GetSumLong());
                    }

                    break;
                default:
                    Write(family.NameBytes);
                    WriteLabels(point.Tags, scope, le: null);
                    if (metric.MetricType is MetricType.LongGauge or MetricType.DoubleGauge)
                    {
                        if (isDouble)
                        {
                            WriteDouble(point.GetGaugeLastValueDouble());
                        }
                        else
                        {
                            WriteLong(point.GetGaugeLastValueLong());
                        }
                    }
                    else if (isDouble)
                    {
                        WriteDouble(point.GetSumDouble());
                    }
                    else
                    {
                        WriteLong(point.GetSumLong());
                    }

                    break;
            }
        }
    }

    /// <summary>
    /// <c>{name="value",...}</c> followed by the space before the value; nothing but the space when there are no labels.
    /// </summary>
    private void WriteLabels(ReadOnlyTagCollection tags, string? scope, double? le)
    {
        _pointLabels.Clear();
        var collision = false;
        foreach (var tag in tags)
        {
            var label = LabelBytes(tag.Key);
            // Label byte arrays are shared per label name, so a reference match means two keys gave one name.
            collision |= _pointLabels.Contains(label);
            _pointLabels.Add(label);
        }

        if (collision)
        {
            WriteMergedLabels(tags, scope, le);
            return;
        }

        if (_pointLabels.Count == 0 && scope is null && le is null)
        {
            Write(" "u8);
            return;
        }

        Write("{"u8);
        var i = 0;
        foreach (var tag in tags)
        {
            if (i > 0)
            {
                Write(","u8);
            }

            Write(_pointLabels[i++]);
            Write("=\""u8);
            WriteLabelValue(tag.Value);
            Write("\""u8);
        }

        WriteExtraLabels(i > 0, scope, le);
        Write("} "u8);
    }

    private void WriteExtraLabels(bool comma, string? scope, double? le)
    {
        if (scope is not null)
        {
            Write(comma ? ","u8 : ""u8);
            Write(ScopeLabel);
            Write("=\""u8);
            WriteEscaped(scope);
            Write("\""u8);
            comma = true;
        }

        if (le is { } bound)
        {
            Write(comma ? ",le=\""u8 : "le=\""u8);
            if (double.IsPositiveInfinity(bound))
            {
                Write(InfBound);
            }
            else
            {
                WriteDoubleDigits(bound);
            }

            Write("\""u8);
        }
    }

    /// <summary>Rare path: attribute keys that sanitise to one label name have their values joined with ';', ordered by key.</summary>
    private void WriteMergedLabels(ReadOnlyTagCollection tags, string? scope, double? le)
    {
        var merged = new SortedDictionary<string, List<(string Key, string Value)>>(StringComparer.Ordinal);
        foreach (var tag in tags)
        {
            var name = PrometheusNames.LabelName(tag.Key);
            if (!merged.TryGetValue(name, out var values))
            {
                merged[name] = values = [];
            }

            values.Add((tag.Key, ValueText(tag.Value)));
        }

        Write("{"u8);
        var first = true;
        foreach (var (name, values) in merged)
        {
            Write(first ? ""u8 : ","u8);
            first = false;
            Write(LabelBytes(name));
            Write("=\""u8);
            WriteEscaped(string.Join(';', values.OrderBy(v => v.Key, StringComparer.Ordinal).Select(v => v.Value)));
            Write("\""u8);
        }

        WriteExtraLabels(!first, scope, le);
        Write("} "u8);
    }

    private byte[] LabelBytes(string key)
    {
        if (!_labelsByKey.TryGetValue(key, out var bytes))
        {
            var name = PrometheusNames.LabelName(key);
            if (!_labelsByName.TryGetValue(name, out bytes))
            {
                _labelsByName[name] = bytes = Encoding.UTF8.GetBytes(name);
            }

            _labelsByKey[key] = bytes;
        }

        return bytes;
    }

    private void WriteLabelValue(object? value)
    {
        switch (value)
        {
            case null:
                break;
            case string text:
                WriteEscaped(text);
                break;
            case bool flag:
                Write(flag ? "true"u8 : "false"u8);
                break;
            // Numbers never contain characters that need escaping: formatted straight into the buffer.
            case int or long or short or byte or sbyte or uint or ulong or ushort or double or float or decimal:
                var span = _out.GetSpan(64);
                if (((IUtf8SpanFormattable)value).TryFormat(span, out var written, default, CultureInfo.InvariantCulture))
                {
                    _out.Advance(written);
                }
                else
                {
                    WriteEscaped(ValueText(value));
                }

                break;
            default:
                WriteEscaped(ValueText(value));
                break;
        }
    }

    private static string ValueText(object? value) => value switch
    {
        null => "",
        string s => s,
        bool b => b ? "true" : "false",
        Array array => string.Join(',', array.Cast<object?>().Select(ValueText)),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    /// <summary>A label value: backslash, double quote and line feed escaped as \\, \" and \n; the rest as UTF-8.</summary>
    private void WriteEscaped(string text)
    {
        var rest = text.AsSpan();
        while (!rest.IsEmpty)
        {
            var special = rest.IndexOfAny('\\', '"', '\n');
            var run = special < 0 ? rest : rest[..special];
            if (!run.IsEmpty)
            {
                var span = _out.GetSpan(Encoding.UTF8.GetMaxByteCount(run.Length));
                _out.Advance(Encoding.UTF8.GetBytes(run, span));
            }

            if (special < 0)
            {
                return;
            }

            Write(rest[special] switch
            {
                '\\' => "\\\\"u8,
                '"' => "\\\""u8,
                _ => "\\n"u8,
            });
            rest = rest[(special + 1)..];
        }
    }

    /// <summary>HELP text: backslash and line feed escaped (double quotes are left as they are there).</summary>
    private static string EscapeHelp(string help) => help.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);

    private void WriteLong(long value)
    {
        var span = _out.GetSpan(24);
        value.TryFormat(span, out var written, default, CultureInfo.InvariantCulture);
        _out.Advance(written);
        Write("\n"u8);
    }

    private void WriteDouble(double value)
    {
        WriteDoubleDigits(value);
        Write("\n"u8);
    }

    /// <summary>A float as Prometheus parses it: +Inf, -Inf, NaN, or the shortest round-trip decimal form.</summary>
    private void WriteDoubleDigits(double value)
    {
        if (double.IsNaN(value))
        {
            Write("NaN"u8);
        }
        else if (double.IsPositiveInfinity(value))
        {
            Write("+Inf"u8);
        }
        else if (double.IsNegativeInfinity(value))
        {
            Write("-Inf"u8);
        }
        else
        {
            var span = _out.GetSpan(32);
            value.TryFormat(span, out var written, "R", CultureInfo.InvariantCulture);
            _out.Advance(written);
        }
    }

    private void Write(ReadOnlySpan<byte> bytes) => _out.Write(bytes);
}
