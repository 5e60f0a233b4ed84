using System.Globalization;
using Microsoft.Extensions.Configuration;

namespace SyncDataBenchmark.AppHost;

/// <summary>
/// The AppHost's settings (section Lab, e.g. --Lab:SeedRows=10000 or Lab__SeedRows): the usual ports by default, so
/// appsettings.json, prometheus/prometheus.host.yml and the dashboards' links all hold; the tests move every port.
/// </summary>
public sealed record LabSettings(
    string RepositoryRoot,
    int SomeServicePort,
    int SyncDataSourcePort,
    int PostgresPort,
    int PrometheusPort,
    string WorkDirectory,
    long SeedRows,
    string? SourceConnectionString,
    string? TargetConnectionString)
{
    public static LabSettings From(IConfiguration configuration, string appHostDirectory)
    {
        var lab = configuration.GetSection("Lab");
        var postgresPort = lab.GetValue("PostgresPort", 5432);
        return new LabSettings(
            Path.GetFullPath(Path.Combine(appHostDirectory, "..", "..")),
            lab.GetValue("SomeServicePort", 5180),
            lab.GetValue("SyncDataSourcePort", 5190),
            postgresPort,
            lab.GetValue("PrometheusPort", 9090),
            // Outside $HOME: as root, the server runs as postgres, which cannot enter /root.
            lab["WorkDirectory"] ?? Path.Combine(Path.GetTempPath(), "syncdatabenchmark-aspire"),
            // As the compose stack seeds (SEED_ROWS there).
            lab.GetValue("SeedRows", 1_000_000L),
            configuration.GetConnectionString("Source"),
            configuration.GetConnectionString("Target"));
    }

    /// <summary>PostgreSQL's data (kept between runs once seeded, as the compose stack's volume is; delete it to start over).</summary>
    public string PostgresData => Path.Combine(WorkDirectory, string.Create(CultureInfo.InvariantCulture, $"postgres-{PostgresPort}"));

    /// <summary>Prometheus' configuration and storage (kept between runs, as the compose stack's volume is).</summary>
    public string PrometheusData => Path.Combine(WorkDirectory, string.Create(CultureInfo.InvariantCulture, $"prometheus-{PrometheusPort}"));

    /// <summary>An existing server, named by both connection strings, instead of Debian's binaries started here.</summary>
    public bool ExistingServer => SourceConnectionString is not null && TargetConnectionString is not null;
}
