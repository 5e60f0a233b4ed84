using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// ArrowStream's own side of a source failure mid-stream: the consumer names the source's reason, which the source
/// writes after Arrow's end-of-stream marker (FaultTests checks every fetch fails; this checks the reason arrives).
/// </summary>
[Collection(FaultCollection.Name)]
public sealed class ArrowStreamFaultTests(FaultLab lab) : IAsyncLifetime
{
    private TableChecksum _before = null!;

    public async Task InitializeAsync()
    {
        lab.Proxy.Reset();
        await lab.CancelLeftoverRunsAsync();
        _before = await lab.MakeTargetDifferAsync();
    }

    public Task DisposeAsync()
    {
        lab.Proxy.Reset();
        return Task.CompletedTask;
    }

    [Fact]
    public async Task The_source_database_failing_mid_stream_is_named_with_the_sources_reason()
    {
        var run = await lab.StartAndWaitMidStreamAsync("ArrowStream", "NpgsqlCopy");
        await lab.WaitForBackendAsync(Lab.SourceDatabase, FaultLab.SourceStreaming, TimeSpan.FromSeconds(30));
        Assert.True(await lab.TerminateBackendsAsync(Lab.SourceDatabase, FaultLab.SourceStreaming) >= 1, "no streaming source backend to terminate:\n" + await lab.DescribeActivityAsync());
        lab.Proxy.Reset();

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        Assert.Contains("SyncDataSource's users/arrow broke after ", finished.Error);
        Assert.Contains("reading the users table failed: ", finished.Error);
        Assert.Contains("terminating connection due to administrator command", finished.Error);
        Assert.Equal(_before, await Lab.ReadChecksumAsync(lab.TargetDb));
        await lab.AssertHealthyAndSyncingAsync();
    }
}
