using System.Globalization;

namespace SyncDataBenchmark.AppHost;

/// <summary>
/// Debian's Prometheus scraping both services every second with prometheus/prometheus.host.yml (its job names are
/// what the Grafana dashboards filter on), its targets moved to the services' ports when they are not the usual ones.
/// </summary>
public static class LabPrometheus
{
    public static IResourceBuilder<ExecutableResource> AddLabPrometheus(this IDistributedApplicationBuilder builder, LabSettings lab)
    {
        var directory = Directory.CreateDirectory(lab.PrometheusData).FullName;
        var config = Path.Combine(directory, "prometheus.yml");
        File.WriteAllText(config, File.ReadAllText(Path.Combine(lab.RepositoryRoot, "prometheus", "prometheus.host.yml"))
            .Replace("127.0.0.1:5180", Address(lab.SomeServicePort), StringComparison.Ordinal)
            .Replace("127.0.0.1:5190", Address(lab.SyncDataSourcePort), StringComparison.Ordinal));
        return builder.AddExecutable("prometheus", Path.Combine(lab.RepositoryRoot, "scripts", "aspire", "prometheus.sh"), directory,
                "--config.file=" + config, "--storage.tsdb.path=" + Path.Combine(directory, "data"), "--web.listen-address=" + Address(lab.PrometheusPort))
            .WithHttpEndpoint(port: lab.PrometheusPort, isProxied: false)
            .WithHttpHealthCheck("/-/ready");
    }

    private static string Address(int port) => string.Create(CultureInfo.InvariantCulture, $"127.0.0.1:{port}");
}
