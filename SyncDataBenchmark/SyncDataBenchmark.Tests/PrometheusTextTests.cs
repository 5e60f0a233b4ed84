using System.Diagnostics.Metrics;
using System.Text;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using SyncData.ServiceDefaults.PrometheusText;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The hand-written Prometheus text writer (SyncData.ServiceDefaults/PrometheusText), in process: known instruments
/// through the OpenTelemetry SDK and the pull reader, against text written by hand from the exposition format's
/// specification; then promtool's own parser and linter on the same text.
/// </summary>
public sealed class PrometheusTextTests
{
    private const string FixtureMeter = "SyncData.Tests.Fixture";

    // Written from the format's rules, not captured from the writer: HELP escapes \ and line feed; label values escape
    // \, " and line feed; histogram buckets are cumulative and end in le="+Inf" = _count; no timestamps.
    private const string Expected = """
        # HELP target_info Target metadata
        # TYPE target_info gauge
        target_info{service_instance_id="instance-1",service_name="fixture-service"} 1
        # HELP fixture_requests_total Requests handled.
        # TYPE fixture_requests_total counter
        fixture_requests_total{http_request_method="GET",url_path="C:\\temp \"quoted\"\nsecond line"} 3
        fixture_requests_total{http_request_method="POST",url_path="/"} 2
        # HELP fixture_queue_length Items waiting.\nA backslash: \\ stays one, "quotes" stay as they are.
        # TYPE fixture_queue_length gauge
        fixture_queue_length 3
        # HELP fixture_temperature_celsius Last reading.
        # TYPE fixture_temperature_celsius gauge
        fixture_temperature_celsius{key_1st_sensor="a"} 21.5
        # HELP fixture_request_duration_seconds Request time.
        # TYPE fixture_request_duration_seconds histogram
        fixture_request_duration_seconds_bucket{http_response_status_code="200",le="0.1"} 1
        fixture_request_duration_seconds_bucket{http_response_status_code="200",le="1"} 3
        fixture_request_duration_seconds_bucket{http_response_status_code="200",le="10"} 4
        fixture_request_duration_seconds_bucket{http_response_status_code="200",le="+Inf"} 5
        fixture_request_duration_seconds_sum{http_response_status_code="200"} 56.3125
        fixture_request_duration_seconds_count{http_response_status_code="200"} 5
        # HELP fixture_gc_heap_allocated_bytes_total fixture.gc.heap.total_allocated (By)
        # TYPE fixture_gc_heap_allocated_bytes_total counter
        fixture_gc_heap_allocated_bytes_total 1024.5
        # HELP fixture_timer_count_value Active timers.
        # TYPE fixture_timer_count_value gauge
        fixture_timer_count_value 7
        # HELP fixture_cpu_time_seconds_total CPU time.
        # TYPE fixture_cpu_time_seconds_total counter
        fixture_cpu_time_seconds_total{cpu_mode="user"} 1.5

        """;

    [Fact]
    public async Task Known_instruments_are_written_exactly_as_the_exposition_format_specifies()
    {
        var text = await ScrapeFixtureAsync();
        Assert.Equal(Expected.ReplaceLineEndings("\n"), text);
    }

    [Fact]
    public async Task Promtool_finds_nothing_to_complain_about_in_the_fixture()
    {
        var (exit, stdout, stderr) = await CheckMetricsAsync(await ScrapeFixtureAsync());
        Assert.True(exit == 0 && stdout.Trim().Length == 0 && stderr.Trim().Length == 0, $"promtool check metrics ({exit}):\n{stdout}{stderr}");
    }

    [Theory]
    [InlineData("http.server.request.duration", "s", PrometheusNames.Kind.Histogram, "http_server_request_duration_seconds")]
    [InlineData("dotnet.gc.collections", "{collection}", PrometheusNames.Kind.Counter, "dotnet_gc_collections_total")]
    [InlineData("dotnet.gc.heap.total_allocated", "By", PrometheusNames.Kind.Counter, "dotnet_gc_heap_allocated_bytes_total")]
    [InlineData("dotnet.gc.pause.time", "s", PrometheusNames.Kind.Counter, "dotnet_gc_pause_time_seconds_total")]
    [InlineData("dotnet.process.memory.working_set", "By", PrometheusNames.Kind.Gauge, "dotnet_process_memory_working_set_bytes")]
    [InlineData("sync.run.in_progress", "{run}", PrometheusNames.Kind.Gauge, "sync_run_in_progress")]
    [InlineData("sync.rows.written", "{row}", PrometheusNames.Kind.Counter, "sync_rows_written_total")]
    [InlineData("sync.run.duration", "s", PrometheusNames.Kind.Histogram, "sync_run_duration_seconds")]
    [InlineData("requests.total", "", PrometheusNames.Kind.Counter, "requests_total")]
    [InlineData("bytes_seconds", "s", PrometheusNames.Kind.Gauge, "bytes_seconds")]
    [InlineData("network.io", "By/s", PrometheusNames.Kind.Gauge, "network_io_bytes_per_second")]
    [InlineData("system.memory.utilization", "1", PrometheusNames.Kind.Gauge, "system_memory_utilization_ratio")]
    [InlineData("dotnet.timer.count", "{timer}", PrometheusNames.Kind.Gauge, "dotnet_timer_count_value")]
    [InlineData("2xx..responses", "{response}", PrometheusNames.Kind.Counter, "_2xx_responses_total")]
    public void Instrument_names_follow_the_prometheus_compatibility_rules(string name, string unit, PrometheusNames.Kind kind, string expected) =>
        Assert.Equal(expected, PrometheusNames.MetricName(name, unit, kind));

    [Theory]
    [InlineData("http.route", "http_route")]
    [InlineData("gc.heap.generation", "gc_heap_generation")]
    [InlineData("1st", "key_1st")]
    [InlineData("_private", "key_private")]
    [InlineData("__name__", "key__name__")]
    [InlineData("a-b c", "a_b_c")]
    public void Attribute_keys_become_valid_label_names(string key, string expected) =>
        Assert.Equal(expected, PrometheusNames.LabelName(key));

    private static async Task<string> ScrapeFixtureAsync()
    {
        var reader = new PrometheusTextReader();
        using var provider = Sdk.CreateMeterProviderBuilder()
            .ConfigureResource(r => r.Clear().AddService("fixture-service", autoGenerateServiceInstanceId: false, serviceInstanceId: "instance-1"))
            .AddMeter(FixtureMeter)
            .AddReader(reader)
            .Build();
        using var meter = new Meter(FixtureMeter);

        var requests = meter.CreateCounter<long>("fixture.requests", "{request}", "Requests handled.");
        requests.Add(3, new("http.request.method", "GET"), new("url.path", "C:\\temp \"quoted\"\nsecond line"));
        requests.Add(2, new("http.request.method", "POST"), new("url.path", "/"));

        var queue = meter.CreateUpDownCounter<int>("fixture.queue.length", "{item}", "Items waiting.\nA backslash: \\ stays one, \"quotes\" stay as they are.");
        queue.Add(5);
        queue.Add(-2);

        meter.CreateObservableGauge("fixture.temperature", () => new Measurement<double>(21.5, new KeyValuePair<string, object?>("1st.sensor", "a")), "Cel", "Last reading.");

        var duration = meter.CreateHistogram("fixture.request.duration", "s", "Request time.", tags: null,
            new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.1, 1, 10] });
        foreach (var seconds in new[] { 0.0625, 0.5, 0.75, 5, 50 })
        {
            duration.Record(seconds, new KeyValuePair<string, object?>("http.response.status_code", 200));
        }

        meter.CreateCounter<double>("fixture.gc.heap.total_allocated", "By").Add(1024.5);
        meter.CreateObservableUpDownCounter("fixture.timer.count", () => 7L, "{timer}", "Active timers.");
        meter.CreateObservableCounter("fixture.cpu.time", () => new Measurement<double>(1.5, new KeyValuePair<string, object?>("cpu.mode", "user")), "s", "CPU time.");

        string? text = null;
        Assert.True(await reader.ScrapeAsync(bytes =>
        {
            text = Encoding.UTF8.GetString(bytes.Span);
            return Task.CompletedTask;
        }, CancellationToken.None));
        return text!;
    }

    /// <summary>promtool check metrics reads the exposition on stdin: exit 0 and no output when it has nothing to say.</summary>
    internal static async Task<(int Exit, string Stdout, string Stderr)> CheckMetricsAsync(string exposition)
    {
        var file = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(file, exposition);
            return await ObservabilityTests.RunAsync("sh", ["-c", "promtool check metrics < \"$1\"", "sh", file], Path.GetTempPath(), "prometheus");
        }
        finally
        {
            File.Delete(file);
        }
    }
}
