using System.Net.Http.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A real lab as the runner sets one up on one host (<see cref="OneHost"/>, <see cref="StartedServices"/>): a throwaway
/// PostgreSQL cluster with the source and target databases, and SyncDataSource and SomeService as separate Kestrel
/// processes on loopback ports.
/// </summary>
public abstract class LabFixture : IAsyncLifetime
{
    /// <summary>Rows seeded into the source; 0 leaves it empty for the test to fill.</summary>
    protected abstract long SeedRows { get; }

    /// <summary>Extra SomeService settings (e.g. a short idle timeout).</summary>
    protected virtual IReadOnlyDictionary<string, string> SomeServiceSettings => new Dictionary<string, string>();

    /// <summary>Extra SyncDataSource settings (e.g. a short snapshot idle timeout).</summary>
    protected virtual IReadOnlyDictionary<string, string> SourceSettings => new Dictionary<string, string>();

    /// <summary>Where SomeService finds SyncDataSource, when not directly (a fixture may put a proxy in between).</summary>
    protected virtual Uri? SourceAddressForSomeService => null;

    /// <summary>Runs after the databases exist and before the services start.</summary>
    protected virtual Task PrepareDatabasesAsync() => Task.CompletedTask;

    public LabDatabases Databases { get; private set; } = null!;
    public StartedServices Services { get; private set; } = null!;
    public LocalPostgres Postgres => Databases.Owned.OfType<LocalPostgres>().Single();
    public ServiceProcess Source => Services.Source!;
    public ServiceProcess SomeService => Services.SomeService;
    public HttpClient Client { get; private set; } = null!;
    public SomeServiceClient Api { get; private set; } = null!;
    public HttpClient SourceClient { get; private set; } = null!;

    public string SourceDb => Databases.SourceDb;
    public string TargetDb => Databases.TargetDb;

    public async Task InitializeAsync()
    {
        LabSweeper.Sweep();
        Databases = await OneHost.StartAsync(tmpfs: false, _ => { }, CancellationToken.None);
        await Lab.PrepareDatabasesAsync(SourceDb, TargetDb, SeedRows);
        await PrepareDatabasesAsync();

        Services = await new StartedServices(Databases, null, RuntimeProfiles.Default)
        {
            SourceSettings = SourceSettings, SomeServiceSettings = SomeServiceSettings, SourceForSomeService = SourceAddressForSomeService,
        }.StartAsync(_ => { }, CancellationToken.None);
        await SourceStartedAsync();
        SomeServiceStarted();
    }

    /// <summary>Stops SyncDataSource (if a test has not) and starts it again on its port.</summary>
    public async Task StartSourceAsync()
    {
        await Services.RestartSourceAsync();
        await SourceStartedAsync();
    }

    private async Task SourceStartedAsync()
    {
        SourceClient?.Dispose();
        SourceClient = new HttpClient { BaseAddress = Source.BaseAddress, Timeout = TimeSpan.FromMinutes(5) };
        await WarmUpSourceAsync();
    }

    /// <summary>
    /// One small request per endpoint, so a test's first run does not pay for JIT and EF's query compilation: on a
    /// loaded machine that took longer than a short idle timeout, and the run failed before any fault.
    /// </summary>
    private async Task WarmUpSourceAsync()
    {
        // The first row of every fetch, read by SomeService's own consumer (a page of one, or the head of a stream).
        foreach (var fetch in Consumers.Fetches)
        {
            await using var rows = Consumers.Read(fetch, SourceClient, pageSize: 1).GetAsyncEnumerator();
            try
            {
                await rows.MoveNextAsync();
            }
            catch (SomeService.Fetch.SourceStreamException)
            {
                // A fixture may hold rows a fetch refuses (422): warming up needs the request, not the row.
            }
        }

        using var ready = await SourceClient.GetAsync("health/ready");
    }

    /// <summary>Stops SomeService (if a test has not) and starts it again on its port.</summary>
    public async Task StartSomeServiceAsync()
    {
        await Services.RestartSomeServiceAsync();
        SomeServiceStarted();
    }

    private void SomeServiceStarted()
    {
        Client?.Dispose();
        Client = new HttpClient { BaseAddress = SomeService.BaseAddress, Timeout = TimeSpan.FromMinutes(10) };
        Api = new SomeServiceClient(Client);
    }

    /// <summary>Triggers a run and waits for its result; fails the test on anything but 200.</summary>
    public Task<RunResult> SyncAsync(string fetch, string insert, int? pageSize = null, int? batchSize = null, string? compression = null) =>
        RunCalls.SyncAsync(Api, fetch, insert, () => SomeService.RecentOutput, pageSize, batchSize, compression);

    /// <summary>Triggers a run in the background and returns its initial (running) record.</summary>
    public async Task<RunResult> StartSyncAsync(string fetch, string insert, string? compression = null)
    {
        using var response = await Api.TriggerAsync(fetch, insert, compression: compression);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == System.Net.HttpStatusCode.Accepted, $"{fetch} × {insert} answered {(int)response.StatusCode}: {body}");
        return System.Text.Json.JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
    }

    public async Task<RunResult> GetRunAsync(Guid id) =>
        await Api.GetRunAsync(id) ?? throw new InvalidOperationException($"SomeService knows no run {id}.");

    /// <summary>Polls a run until it leaves "running".</summary>
    public Task<RunResult> WaitFinishedAsync(Guid id, TimeSpan timeout) => RunCalls.WaitFinishedAsync(Api, id, timeout, () => SomeService.RecentOutput);

    /// <summary>The services, then the cluster (<see cref="LabDatabases.DisposeAllAsync"/>: each part once, whatever started).</summary>
    public virtual async Task DisposeAsync()
    {
        Client?.Dispose();
        SourceClient?.Dispose();
        await LabDatabases.DisposeAllAsync(Services, Databases);
    }
}

/// <summary>10,007 generated rows: not a multiple of any page size the tests use.</summary>
public sealed class MatrixLab : LabFixture
{
    public const long Rows = 10_007;
    protected override long SeedRows => Rows;
}

[CollectionDefinition(Name)]
public sealed class MatrixCollection : ICollectionFixture<MatrixLab>
{
    public const string Name = "matrix";
}
