using System.Net.Http.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A real lab: a throwaway PostgreSQL cluster with the source and target databases, and SyncDataSource and
/// SomeService as separate Kestrel processes on loopback ports.
/// </summary>
public abstract class LabFixture : IAsyncLifetime
{
    /// <summary>Rows seeded into the source; 0 leaves it empty for the test to fill.</summary>
    protected abstract long SeedRows { get; }

    /// <summary>Extra SomeService settings (e.g. a short idle timeout).</summary>
    protected virtual IReadOnlyDictionary<string, string> SomeServiceSettings => new Dictionary<string, string>();

    /// <summary>Extra SyncDataSource settings (e.g. a short snapshot idle timeout).</summary>
    protected virtual IReadOnlyDictionary<string, string> SourceSettings => new Dictionary<string, string>();

    /// <summary>Where SomeService finds SyncDataSource (a fixture may put a proxy in between).</summary>
    protected virtual Uri SourceAddressForSomeService => Source.BaseAddress;

    /// <summary>Runs after the databases exist and before the services start.</summary>
    protected virtual Task PrepareDatabasesAsync() => Task.CompletedTask;

    public LocalPostgres Postgres { get; private set; } = null!;
    public ServiceProcess Source { get; private set; } = null!;
    public ServiceProcess SomeService { get; private set; } = null!;
    public HttpClient Client { get; private set; } = null!;
    public SomeServiceClient Api { get; private set; } = null!;
    public HttpClient SourceClient { get; private set; } = null!;

    public string SourceDb => Postgres.ConnectionString(Lab.SourceDatabase);
    public string TargetDb => Postgres.ConnectionString(Lab.TargetDatabase);

    public async Task InitializeAsync()
    {
        LabSweeper.Sweep();
        Postgres = await LocalPostgres.StartAsync();
        await Lab.CreateDatabasesAsync(Postgres, SeedRows);

        await PrepareDatabasesAsync();

        await StartSourceAsync();
        await StartSomeServiceAsync();
    }

    public async Task StartSourceAsync()
    {
        var port = Source?.BaseAddress.Port ?? LocalPostgres.FreePort();
        var environment = Lab.SourceEnvironment(SourceDb);
        foreach (var (key, value) in SourceSettings)
        {
            environment[key] = value;
        }

        Source = await ServiceProcess.StartAsync("SyncDataSource", Lab.BuiltAssembly("SyncDataSource"), port, environment);
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

    public async Task StartSomeServiceAsync()
    {
        var port = SomeService?.BaseAddress.Port ?? LocalPostgres.FreePort();
        var environment = Lab.SomeServiceEnvironment(TargetDb, SourceAddressForSomeService);
        foreach (var (key, value) in SomeServiceSettings)
        {
            environment[key] = value;
        }

        SomeService = await ServiceProcess.StartAsync("SomeService", Lab.BuiltAssembly("SomeService"), port, environment);
        Client = new HttpClient { BaseAddress = SomeService.BaseAddress, Timeout = TimeSpan.FromMinutes(10) };
        Api = new SomeServiceClient(Client);
    }

    /// <summary>Triggers a run and waits for its result; fails the test on anything but 200.</summary>
    public async Task<RunResult> SyncAsync(string fetch, string insert, int? pageSize = null, int? batchSize = null, string? compression = null)
    {
        using var response = await Api.TriggerAsync(fetch, insert, pageSize, batchSize, wait: true, compression: compression);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{fetch} × {insert} answered {(int)response.StatusCode}: {body}\n{SomeService.RecentOutput}");
        return System.Text.Json.JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
    }

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
    public async Task<RunResult> WaitFinishedAsync(Guid id, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            var run = await GetRunAsync(id);
            if (run.Status != RunStatus.Running)
            {
                return run;
            }

            Assert.True(DateTime.UtcNow < deadline, $"Run {id} still running after {timeout}.\n{SomeService.RecentOutput}");
            await Task.Delay(100);
        }
    }

    public virtual async Task DisposeAsync()
    {
        Client?.Dispose();
        SourceClient?.Dispose();
        if (SomeService is not null)
        {
            await SomeService.DisposeAsync();
        }

        if (Source is not null)
        {
            await Source.DisposeAsync();
        }

        if (Postgres is not null)
        {
            await Postgres.DisposeAsync();
        }
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
