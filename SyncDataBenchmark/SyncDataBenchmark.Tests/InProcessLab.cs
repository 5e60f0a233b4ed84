using System.Collections.Concurrent;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using SomeService.Fetch;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Both services hosted in the test process (WebApplicationFactory: real routing, middleware and DI, no sockets)
/// over one real throwaway PostgreSQL; SomeService reaches SyncDataSource through the source's in-memory handler.
/// For tests about requests and answers, which need no separate process.
/// </summary>
public sealed class InProcessLab : IAsyncLifetime
{
    public const long Rows = 2_003;

    public LabDatabases Databases { get; private set; } = null!;
    public LocalPostgres Postgres => Databases.Owned.OfType<LocalPostgres>().Single();
    public string SourceDb => Databases.SourceDb;
    public string TargetDb => Databases.TargetDb;

    public async Task InitializeAsync()
    {
        LabSweeper.Sweep();
        Databases = await OneHost.StartAsync(tmpfs: false, _ => { }, CancellationToken.None);
        await Lab.PrepareDatabasesAsync(SourceDb, TargetDb, Rows);
    }

    /// <summary>SyncDataSource in process, with extra settings (e.g. Measurement:*).</summary>
    public WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions> Source(IReadOnlyDictionary<string, string?>? settings = null) =>
        new WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions>().WithWebHostBuilder(b =>
        {
            b.UseEnvironment("Production");
            b.UseSetting("ConnectionStrings:Source", SourceDb);
            foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
            {
                b.UseSetting(key, value);
            }
        });

    /// <summary>SomeService in process, calling <paramref name="source"/> through its in-memory handler; log lines go to <paramref name="log"/>.</summary>
    public WebApplicationFactory<SomeService.Sync.SyncOptions> SomeService(
        WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions> source, IReadOnlyDictionary<string, string?>? settings = null, ConcurrentQueue<string>? log = null) =>
        SomeService(() => source, settings, log);

    /// <summary>
    /// The same, calling whichever SyncDataSource <paramref name="source"/> gives at each request (none: refused): a test
    /// can stop the source and start another under a SomeService that keeps running, as a restarted process would be.
    /// </summary>
    public WebApplicationFactory<SomeService.Sync.SyncOptions> SomeService(
        Func<WebApplicationFactory<SyncDataSource.Fetches.FetchApiOptions>?> source, IReadOnlyDictionary<string, string?>? settings = null, ConcurrentQueue<string>? log = null) =>
        new WebApplicationFactory<SomeService.Sync.SyncOptions>().WithWebHostBuilder(b =>
        {
            b.UseEnvironment("Production");
            b.UseSetting("ConnectionStrings:Target", TargetDb);
            b.UseSetting("Sync:SourceBaseUrl", "http://syncdatasource.in-process/");
            foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
            {
                b.UseSetting(key, value);
            }

            b.ConfigureTestServices(services =>
            {
                services.AddHttpClient<SourceClient>().ConfigurePrimaryHttpMessageHandler(() => new CurrentSourceHandler(() => source()?.Server.CreateHandler()));
                if (log is not null)
                {
                    services.AddLogging(l => l.AddProvider(new QueueLoggerProvider(log)));
                }
            });
        });

    /// <summary>Both services in process, each with extra settings (a scratch database's connection string, say), and a client for each.</summary>
    public InProcessPair Pair(IReadOnlyDictionary<string, string?>? sourceSettings = null, IReadOnlyDictionary<string, string?>? someServiceSettings = null)
    {
        var source = Source(sourceSettings);
        return new InProcessPair(source, SomeService(source, someServiceSettings));
    }

    public async Task DisposeAsync() => await LabDatabases.DisposeAllAsync(Databases);

    /// <summary>Triggers a run and waits for it; fails the test on anything but 200.</summary>
    public static Task<RunResult> SyncAsync(HttpClient someService, string fetch, string insert) =>
        RunCalls.SyncAsync(new SomeServiceClient(someService), fetch, insert);

    private sealed class QueueLoggerProvider(ConcurrentQueue<string> lines) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new QueueLogger(lines);

        public void Dispose()
        {
        }

        private sealed class QueueLogger(ConcurrentQueue<string> lines) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Information;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
                lines.Enqueue($"{logLevel}: {formatter(state, exception)}");
        }
    }
}

[CollectionDefinition(Name)]
[LongRunning]
public sealed class InProcessCollection : ICollectionFixture<InProcessLab>
{
    public const string Name = "in-process";
}
