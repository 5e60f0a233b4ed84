using System.Globalization;
using Aspire.Hosting;
using Aspire.Hosting.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.AppHost.Tests;

/// <summary>
/// The AppHost as a user starts it (`dotnet run --project SyncDataBenchmark/SyncDataBenchmark.AppHost`), here through
/// Aspire.Hosting.Testing with the dashboard on, once for the test class: every port moved to a free one, a small
/// seed, and HOME in a temp directory (Aspire keeps its DCP state, certificates and keys under HOME).
/// </summary>
public sealed class AspireLab : IAsyncLifetime
{
    /// <summary>Generous: the machine is shared, and the first start builds nothing but starts six processes.</summary>
    public static readonly TimeSpan Patience = TimeSpan.FromMinutes(5);

    /// <summary>How long a run's spans may take to reach the dashboard: each service exports every second or so.</summary>
    public static readonly TimeSpan TracePatience = TimeSpan.FromMinutes(2);

    public const int SeedRows = 10_007;

    private readonly string _home = Directory.CreateTempSubdirectory("syncdata-aspire-home-").FullName;
    // Not under the 0700 home: as root, the server runs as postgres, which must enter it.
    private readonly string _work = Path.Combine(Path.GetTempPath(), "syncdata-aspire-lab-" + Path.GetRandomFileName());
    private string? _previousHome;
    private DistributedApplication? _app;

    public string BrowserToken { get; } = Guid.NewGuid().ToString("N");
    public string ApiKey { get; } = Guid.NewGuid().ToString("N");
    public int SomeServicePort { get; } = LocalPostgres.FreePort();
    public int SyncDataSourcePort { get; } = LocalPostgres.FreePort();
    public int PostgresPort { get; } = LocalPostgres.FreePort();
    public int PrometheusPort { get; } = LocalPostgres.FreePort();
    public Uri Dashboard { get; } = Loopback(LocalPostgres.FreePort());
    public DashboardTelemetry Telemetry { get; private set; } = null!;
    public SomeServiceClient SomeService { get; private set; } = null!;

    public DistributedApplication App => _app ?? throw new InvalidOperationException("The AppHost has not started.");

    public async Task InitializeAsync()
    {
        _previousHome = Environment.GetEnvironmentVariable("HOME");
        Environment.SetEnvironmentVariable("HOME", _home);
        using var timeout = new CancellationTokenSource(Patience);
        string[] args =
        [
            $"--Lab:SomeServicePort={SomeServicePort}", $"--Lab:SyncDataSourcePort={SyncDataSourcePort}",
            $"--Lab:PostgresPort={PostgresPort}", $"--Lab:PrometheusPort={PrometheusPort}",
            $"--Lab:WorkDirectory={_work}", $"--Lab:SeedRows={SeedRows}",
            // The dashboard as the AppHost's http launch profile has it, on free ports; a known token and API key.
            $"--ASPNETCORE_URLS={Dashboard.ToString().TrimEnd('/')}",
            $"--ASPIRE_DASHBOARD_OTLP_ENDPOINT_URL={Loopback(LocalPostgres.FreePort()).ToString().TrimEnd('/')}",
            $"--ASPIRE_RESOURCE_SERVICE_ENDPOINT_URL={Loopback(LocalPostgres.FreePort()).ToString().TrimEnd('/')}",
            "--ASPIRE_ALLOW_UNSECURED_TRANSPORT=true",
            // The services' ports are theirs (Urls): the testing builder must not move them.
            "--DcpPublisher:RandomizePorts=false",
        ];
        var builder = await DistributedApplicationTestingBuilder.CreateAsync<Projects.SyncDataBenchmark_AppHost>(args,
            (options, _) => { options.DisableDashboard = false; options.AllowUnsecuredTransport = true; }, timeout.Token);
        // Warnings only: every line of every resource would otherwise land in the suite's output.
        builder.Services.AddLogging(logging => logging.AddFilter(level => level >= LogLevel.Warning));
        // Set on the builder, as Aspire's own tests do: given as arguments, the AppHost still generated its own.
        builder.Configuration["AppHost:BrowserToken"] = BrowserToken;
        builder.Configuration["AppHost:DashboardApiKey"] = ApiKey;
        _app = await builder.BuildAsync(timeout.Token);
        await _app.StartAsync(timeout.Token);
        foreach (var resource in new[] { "SyncDataSource", "SomeService", "prometheus" })
        {
            await _app.ResourceNotifications.WaitForResourceHealthyAsync(resource, timeout.Token);
        }

        Telemetry = new DashboardTelemetry(new HttpClient { BaseAddress = Dashboard, Timeout = TimeSpan.FromSeconds(60) }, ApiKey);
        SomeService = new SomeServiceClient(new HttpClient { BaseAddress = Loopback(SomeServicePort), Timeout = Patience });
    }

    public async Task DisposeAsync()
    {
        SomeService?.Http.Dispose();
        Telemetry?.Dispose();
        if (_app is not null)
        {
            // Stops every resource (the script stops PostgreSQL on SIGTERM) and the orchestrator.
            await _app.StopAsync();
            await _app.DisposeAsync();
        }

        Environment.SetEnvironmentVariable("HOME", _previousHome);
        foreach (var directory in new[] { _home, _work })
        {
            try
            {
                Directory.Delete(directory, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }

    /// <summary>Where a test's pictures go: kept after the run (TestResults), for a person to look at.</summary>
    public static string OutputDirectory(string test) =>
        Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, "TestResults", test)).FullName;

    public static string RepositoryRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "SyncDataBenchmark", "SyncDataBenchmark.slnx")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("The repository root (with SyncDataBenchmark/SyncDataBenchmark.slnx) is not above " + AppContext.BaseDirectory);
    }

    private static Uri Loopback(int port) => new(string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}/"));
}
