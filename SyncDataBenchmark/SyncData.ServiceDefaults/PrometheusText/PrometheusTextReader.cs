using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace SyncData.ServiceDefaults.PrometheusText;

/// <summary>
/// A pull-mode OpenTelemetry metric reader: nothing is collected until a scrape asks (<see cref="ScrapeAsync"/>), so
/// between scrapes the services pay only for recording measurements. Sums are cumulative, as Prometheus expects.
/// Added to the services' meter provider with <c>AddReader</c>, beside the OTLP exporter when that is configured.
/// </summary>
public sealed class PrometheusTextReader : BaseExportingMetricReader
{
    private readonly Exporter _exporter;
    private readonly SemaphoreSlim _gate = new(1, 1);

    public PrometheusTextReader()
        : this(new Exporter())
    {
    }

    private PrometheusTextReader(Exporter exporter)
        : base(exporter)
    {
        _exporter = exporter;
        TemporalityPreference = MetricReaderTemporalityPreference.Cumulative;
    }

    /// <summary>How long one collection may take before the scrape gives up.</summary>
    public TimeSpan CollectTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Collects every instrument now and hands the exposition text to <paramref name="write"/> (valid only during
    /// that call). One scrape at a time: the SDK folds concurrent collections into one, and the text lives in one
    /// reused buffer.
    /// </summary>
    /// <returns>false if the collection failed or timed out (nothing was written).</returns>
    public async Task<bool> ScrapeAsync(Func<ReadOnlyMemory<byte>, Task> write, CancellationToken ct)
    {
        await _gate.WaitAsync(ct);
        try
        {
            _exporter.Formatter.Begin(_exporter.ParentProvider?.GetResource());
            // Through the exporter's Collect delegate: the SDK lets a pull-only exporter's reader collect only that way.
            if (_exporter.Collect?.Invoke((int)CollectTimeout.TotalMilliseconds) != true)
            {
                return false;
            }

            await write(_exporter.Formatter.Written);
            return true;
        }
        finally
        {
            _gate.Release();
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _gate.Dispose();
        }

        base.Dispose(disposing);
    }

    /// <summary>Called by the SDK inside <c>Collect</c>, on the scraping thread: formats the batch while it is valid.</summary>
    [ExportModes(ExportModes.Pull)]
    private sealed class Exporter : BaseExporter<Metric>, IPullMetricExporter
    {
        public PrometheusTextFormatter Formatter { get; } = new();

        /// <summary>Set by the SDK when the reader is created; null once it is disposed.</summary>
        public Func<int, bool>? Collect { get; set; }

        public override ExportResult Export(in Batch<Metric> batch)
        {
            Formatter.Write(batch);
            return ExportResult.Success;
        }
    }
}
