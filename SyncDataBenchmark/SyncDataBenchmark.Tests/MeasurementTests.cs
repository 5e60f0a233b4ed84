using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.TestHost;
using SyncData.Harness;
using SyncData.ServiceDefaults;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// POST /runtime/window/start|stop runs a blocking compacting GC and resets a run's counters: unreachable unless the
/// lab enables it, then only with the lab's key and from loopback; SomeService runs either way.
/// </summary>
[Collection(InProcessCollection.Name)]
public sealed class MeasurementTests(InProcessLab lab)
{
    private const string Key = "the-lab-key";

    private static readonly Dictionary<string, string?> Enabled = new()
    {
        ["Measurement:Enabled"] = "true",
        ["Measurement:Key"] = Key,
    };

    [Theory]
    [InlineData("runtime/window/start")]
    [InlineData("runtime/window/stop")]
    public async Task Off_by_default_the_window_does_not_exist(string path)
    {
        await using var source = lab.Source();

        using var response = await source.CreateClient().PostAsync(path, null);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    [Fact]
    public async Task Enabling_it_without_a_key_is_refused_at_startup()
    {
        await using var source = lab.Source(new Dictionary<string, string?> { ["Measurement:Enabled"] = "true" });

        var error = Assert.ThrowsAny<Exception>(() => source.CreateClient());
        Assert.Contains("Measurement:Enabled needs Measurement:Key", error.ToString());
    }

    [Theory]
    [InlineData("127.0.0.1", Key, 200)]
    [InlineData("::1", Key, 200)]
    [InlineData("::ffff:127.0.0.1", Key, 200)]
    [InlineData("127.0.0.1", null, 403)]
    [InlineData("127.0.0.1", "", 403)]
    [InlineData("127.0.0.1", "the-lab-kez", 403)]
    [InlineData("127.0.0.1", "the-lab-key-and-more", 403)]
    [InlineData("10.1.2.3", Key, 403)] // not loopback: refused even with the key
    [InlineData("192.168.0.9", Key, 403)]
    public async Task Enabled_it_needs_the_key_and_loopback(string from, string? key, int status)
    {
        await using var source = lab.Source(Enabled);

        var context = await source.Server.SendAsync(c =>
        {
            c.Request.Method = HttpMethods.Post;
            c.Request.Path = "/runtime/window/start";
            c.Connection.RemoteIpAddress = IPAddress.Parse(from);
            if (key is not null)
            {
                c.Request.Headers[MeasurementOptions.KeyHeader] = key;
            }
        });

        Assert.Equal(status, context.Response.StatusCode);
    }

    [Fact]
    public async Task AllowRemote_accepts_other_addresses_with_the_key_only()
    {
        await using var source = lab.Source(new Dictionary<string, string?>(Enabled) { ["Measurement:AllowRemote"] = "true" });

        async Task<int> Post(string? key) => (await source.Server.SendAsync(c =>
        {
            c.Request.Method = HttpMethods.Post;
            c.Request.Path = "/runtime/window/stop";
            c.Connection.RemoteIpAddress = IPAddress.Parse("10.1.2.3");
            if (key is not null)
            {
                c.Request.Headers[MeasurementOptions.KeyHeader] = key;
            }
        })).Response.StatusCode;

        Assert.Equal(200, await Post(Key));
        Assert.Equal(403, await Post("wrong"));
        Assert.Equal(403, await Post(null));
    }

    [Fact]
    public async Task With_the_source_window_off_SomeService_still_runs_and_says_why_it_has_no_source_figures()
    {
        var log = new ConcurrentQueue<string>();
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source, Enabled, log);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadSummaryAsync(lab.SourceDb));

        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "NpgsqlCopy", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.NotNull(run.SomeService);
        Assert.Null(run.SyncDataSource);
        Assert.Contains(log, l => l.Contains("SyncDataSource's runtime counters are unavailable", StringComparison.Ordinal) && l.Contains("404", StringComparison.Ordinal));
    }

    [Fact]
    public async Task With_the_wrong_key_SomeService_still_runs_and_says_the_source_refused()
    {
        var log = new ConcurrentQueue<string>();
        await using var source = lab.Source(new Dictionary<string, string?>(Enabled) { ["Measurement:AllowRemote"] = "true" });
        await using var someService = lab.SomeService(source, new Dictionary<string, string?> { ["Measurement:Key"] = "not-the-lab-key" }, log);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadSummaryAsync(lab.SourceDb));

        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "NpgsqlCopy", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.Null(run.SyncDataSource);
        Assert.Contains(log, l => l.Contains("SyncDataSource's runtime counters are unavailable", StringComparison.Ordinal) && l.Contains("403", StringComparison.Ordinal));
    }

    [Fact]
    public async Task With_the_lab_key_SomeService_gets_the_source_figures()
    {
        // In process there is no socket, hence no loopback address: AllowRemote stands in for it here.
        await using var source = lab.Source(new Dictionary<string, string?>(Enabled) { ["Measurement:AllowRemote"] = "true" });
        await using var someService = lab.SomeService(source, new Dictionary<string, string?> { ["Measurement:Key"] = Key });
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadSummaryAsync(lab.SourceDb));

        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "EFStream", "NpgsqlCopy");

        Assert.True(run.Verified, run.Error);
        Assert.NotNull(run.SyncDataSource);
        Assert.NotEmpty(run.SyncDataSource.Samples ?? []);
    }
}
