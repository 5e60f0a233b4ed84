using System.Diagnostics;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Harness.Network;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// One small two-host lab as the runner builds it for --link 100mbit (BenchLab): two namespaces, two
/// clusters, the services each on its own host, joined by one shaped veth pair. Enough rows that the link's limit
/// shows (about 20 MB cross it), and a short idle timeout so the link fault fails fast.
/// </summary>
public sealed class LinkLab : IAsyncLifetime
{
    public const long Rows = 300_000;

    public static readonly TimeSpan IdleTimeout = TimeSpan.FromSeconds(5);

    public static NetworkLink Link { get; } = NetworkLink.Find("100mbit")!;

    public BenchLab BenchLab { get; private set; } = null!;
    public HttpClient Client { get; private set; } = null!;
    public SomeServiceClient Api => new(Client);
    public TwoHostLab Network => BenchLab.Databases.Network!;

    public async Task InitializeAsync()
    {
        // The default profile as it is, plus the short idle timeout (the profile's variables reach SomeService as they are).
        var profile = RuntimeProfiles.Default with
        {
            Environment = new Dictionary<string, string> { ["Sync__SourceIdleTimeout"] = IdleTimeout.ToString() },
        };
        var settings = new BenchSettings
        {
            Sizes = [Rows], Repeat = 1, Cases = CaseSelection.Parse([], out _), Out = new DirectoryInfo(Path.GetTempPath()),
            Links = [Link], Profiles = [profile],
        };
        BenchLab = await BenchLab.StartAsync(settings, Link, _ => { }, CancellationToken.None);
        Client = BenchLab.Services.CreateSomeServiceClient(TimeSpan.FromMinutes(5));
    }

    /// <summary>Triggers a run and waits for it; fails the test on anything but 200.</summary>
    public Task<RunResult> SyncAsync(string fetch, string insert) => RunCalls.SyncAsync(Api, fetch, insert, () => BenchLab.Services.SomeServiceOutput ?? "");

    public async Task DisposeAsync()
    {
        Client?.Dispose();
        if (BenchLab is not null)
        {
            await BenchLab.DisposeAsync();
        }
    }
}

[CollectionDefinition(Name)]
public sealed class LinkCollection : ICollectionFixture<LinkLab>
{
    public const string Name = "link";
}

/// <summary>The two-host lab (--link): built and removed, swept when its owner died, really shaped, and a fault when it goes down.</summary>
[Collection(LinkCollection.Name)]
[Trait("Tier", "Engine")]
public sealed class LinkTests(LinkLab lab) : IAsyncLifetime
{
    private TableChecksum _before = null!;

    public async Task InitializeAsync()
    {
        await lab.Network.SetLinkAsync(up: true);
        await Lab.MakeTargetDifferAsync(lab.BenchLab.TargetDb, lab.BenchLab.SourceChecksum);
        _before = await Lab.ReadChecksumAsync(lab.BenchLab.TargetDb);
    }

    public Task DisposeAsync() => lab.Network.SetLinkAsync(up: true);

    [Fact]
    public async Task Each_host_has_lo_and_its_end_of_the_link_and_nothing_else_no_default_route()
    {
        var network = lab.Network;
        foreach (var (ns, device, address) in new[] { (network.SourceNamespace, network.SourceDevice, network.SourceAddress), (network.TargetNamespace, network.TargetDevice, network.TargetAddress) })
        {
            using var links = JsonDocument.Parse(await IpAsync("-n", ns, "-j", "addr", "show"));
            var addressed = links.RootElement.EnumerateArray()
                .SelectMany(l => l.GetProperty("addr_info").EnumerateArray().Select(a => $"{l.GetProperty("ifname").GetString()} {a.GetProperty("local").GetString()}/{a.GetProperty("prefixlen").GetInt32()}"))
                .Order().ToList();
            Assert.Equal(new[] { $"{device} {address}/{TwoHostLab.Prefix}", "lo 127.0.0.1/8", "lo ::1/128" }.Order(), addressed);
            Assert.StartsWith("169.254.", address);
            var routes = await IpAsync("-n", ns, "route", "show");
            Assert.DoesNotContain("default", routes);
            Assert.Single(routes.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        }
    }

    [Fact]
    public async Task A_lab_is_removed_on_dispose_and_a_dead_owners_lab_by_the_sweep()
    {
        var mine = await TwoHostLab.CreateAsync(LinkLab.Link.RateBitsPerSecond!.Value);
        Assert.Contains(mine.SourceNamespace, await IpAsync("netns", "list"));
        await mine.DisposeAsync();
        Assert.DoesNotContain(mine.SourceNamespace, await IpAsync("netns", "list"));
        Assert.DoesNotContain(mine.TargetNamespace, await IpAsync("netns", "list"));

        // A lab whose owner is gone: named after a process that has exited (its pid, a start time it never had).
        var orphan = await TwoHostLab.CreateAsync(LinkLab.Link.RateBitsPerSecond!.Value, owner: $"{await DeadPidAsync()} 1");
        Assert.Contains(orphan.SourceNamespace, await IpAsync("netns", "list"));

        LabSweeper.Sweep();

        var left = await IpAsync("netns", "list");
        Assert.DoesNotContain(orphan.SourceNamespace, left);
        Assert.DoesNotContain(orphan.TargetNamespace, left);
        Assert.DoesNotContain(orphan.SourceDevice, await IpAsync("link", "show"));
        // The sweep left the live lab alone.
        Assert.Contains(lab.Network.SourceNamespace, left);
    }

    /// <summary>
    /// From the target host, psql reads the source's table across the link (COPY binary, to /dev/null: nothing but the
    /// transfer, which unshaped runs at hundreds of MB/s here): it cannot take less than the bytes that crossed ÷ the rate.
    /// </summary>
    [Fact]
    public async Task The_link_limits_a_transfer_to_its_rate()
    {
        var before = await lab.Network.ReadCountersAsync();
        var copy = await ChildProcess.RunAsync("psql",
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", Conninfo.From(lab.BenchLab.Databases.PeerPlacement.SourceConnection, withPassword: false), "-c", @"\copy users to '/dev/null' (format binary)"],
            new ChildProcessOptions { Namespace = lab.Network.TargetNamespace, KeepAllOutput = true });
        var crossed = (await lab.Network.ReadCountersAsync()).Since(before);

        Assert.True(copy.ExitCode == 0, copy.StandardError);
        // The rows crossed the link (COPY binary is about 65 bytes a row), the way back only acknowledgements.
        Assert.True(crossed.SourceToTargetBytes > LinkLab.Rows * 40, $"only {crossed.SourceToTargetBytes:N0} bytes crossed source → target");
        var floor = TimeSpan.FromSeconds(crossed.SourceToTargetBytes * 8.0 / LinkLab.Link.RateBitsPerSecond!.Value);
        Assert.True(floor > TimeSpan.FromSeconds(1), $"too few bytes for the limit to matter: {crossed.SourceToTargetBytes:N0}");
        Assert.True(copy.Elapsed >= floor, $"{crossed.SourceToTargetBytes:N0} bytes crossed in {copy.Elapsed.TotalMilliseconds:N0} ms, faster than the link's {floor.TotalMilliseconds:N0} ms");
    }

    /// <summary>A run's bytes cross the link, and its wall time is no less than the link allows.</summary>
    [Fact]
    public async Task A_runs_rows_cross_the_link_and_take_no_less_than_its_limit()
    {
        var before = await lab.Network.ReadCountersAsync();
        var clock = Stopwatch.StartNew();
        var run = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy");
        var wall = clock.Elapsed;
        var crossed = (await lab.Network.ReadCountersAsync()).Since(before);

        Assert.True(run.Verified, run.Error);
        Assert.True(crossed.SourceToTargetBytes > LinkLab.Rows * 40, $"only {crossed.SourceToTargetBytes:N0} bytes crossed source → target");
        var floor = TimeSpan.FromSeconds(crossed.SourceToTargetBytes * 8.0 / LinkLab.Link.RateBitsPerSecond!.Value);
        Assert.True(wall >= floor, $"{crossed.SourceToTargetBytes:N0} bytes crossed in {wall.TotalMilliseconds:N0} ms, faster than the link's {floor.TotalMilliseconds:N0} ms");
    }

    [Fact]
    public async Task The_link_going_down_mid_run_fails_it_within_the_idle_timeout_and_the_next_run_succeeds()
    {
        var start = await lab.Network.ReadCountersAsync();
        using var trigger = await lab.Api.TriggerAsync("NpgsqlCopy", "NpgsqlCopy");
        var started = JsonSerializer.Deserialize(await trigger.Content.ReadAsStringAsync(), SyncJsonContext.Default.RunResult)!;
        // Mid-stream: the run's first megabyte of rows has crossed, leaving ~19 MB (over 1.5 s at the link's rate) for the
        // link to go down in: at 3 MB a loaded machine once took the link down only after the run had committed.
        var deadline = Stopwatch.StartNew();
        while ((await lab.Network.ReadCountersAsync()).Since(start).SourceToTargetBytes < 1_000_000)
        {
            Assert.True(deadline.Elapsed < TimeSpan.FromSeconds(60), "the run did not start streaming within 60 s");
            await Task.Delay(20);
        }

        await lab.Network.SetLinkAsync(up: false);
        var down = Stopwatch.StartNew();
        var run = await WaitFinishedAsync(started.Id, LinkLab.IdleTimeout + TimeSpan.FromSeconds(30));
        var failedAfter = down.Elapsed;
        await lab.Network.SetLinkAsync(up: true);

        Assert.Equal(RunStatus.Failed, run.Status);
        Assert.Contains("SyncDataSource", run.Error);
        Assert.Contains("(idle timeout)", run.Error);
        Assert.True(failedAfter < LinkLab.IdleTimeout + TimeSpan.FromSeconds(5), $"failed {failedAfter.TotalSeconds:0.0} s after the link went down");
        Assert.Equal(_before, await Lab.ReadChecksumAsync(lab.BenchLab.TargetDb));

        var next = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy");
        Assert.True(next.Verified, next.Error);
        Assert.Equal(LinkLab.Rows, next.Rows);
    }

    private Task<RunResult> WaitFinishedAsync(Guid id, TimeSpan timeout) =>
        RunCalls.WaitFinishedAsync(lab.Api, id, timeout, () => lab.BenchLab.Services.SomeServiceOutput ?? "");

    /// <summary>A pid no process has now: one that just exited (pids are not reused that fast).</summary>
    private static async Task<int> DeadPidAsync()
    {
        await using var process = ChildProcess.Start("true", []);
        await process.WaitForExitAsync();
        return process.Id;
    }

    private static async Task<string> IpAsync(params string[] arguments)
    {
        var result = await ChildProcess.RunAsync("ip", arguments, new ChildProcessOptions { KeepAllOutput = true });
        Assert.True(result.ExitCode == 0, $"ip {string.Join(' ', arguments)}: {result.StandardError}");
        return result.StandardOutput;
    }
}
