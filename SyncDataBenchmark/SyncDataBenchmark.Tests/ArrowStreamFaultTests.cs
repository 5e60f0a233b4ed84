using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// ArrowStream's own side of the faults, into the typed COPY writer and into the raw relays fed its columns as COPY
/// (which would commit a partial COPY on Dispose): a source failure mid-stream is named with the source's reason (written
/// after Arrow's end-of-stream marker), a cancellation rolls back; the target keeps its previous rows and its primary
/// key. (FaultTests runs every fetch, this one included, into one writer: killed source, stall, idle timeout.)
/// </summary>
[Collection(FaultCollection.Name)]
[Trait("Tier", "Lab")]
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

    public static TheoryData<string> CopyWriters() => new() { "NpgsqlCopy", "NpgsqlCopyRaw", "NpgsqlCopyRawTuned" };

    private async Task AssertTargetUntouchedAsync()
    {
        Assert.Equal(_before, await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.Equal(PrimaryKeys.Expected, await PrimaryKeys.OfUsersAsync(lab.TargetDb));
    }

    [Theory]
    [MemberData(nameof(CopyWriters))]
    public async Task The_source_database_failing_mid_stream_is_named_with_the_sources_reason(string insert)
    {
        var run = await lab.StartAndWaitMidStreamAsync("ArrowStream", insert);
        await lab.WaitForBackendBlockedSendingAsync(Lab.SourceDatabase, FaultLab.SourceStreaming, TimeSpan.FromSeconds(30));
        Assert.True(await lab.TerminateBackendsAsync(Lab.SourceDatabase, FaultLab.SourceStreaming) >= 1, "no streaming source backend to terminate:\n" + await lab.DescribeActivityAsync());
        lab.Proxy.Reset();

        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(60));
        Assert.Equal(RunStatus.Failed, finished.Status);
        // The source's words after its marker; what Npgsql saw first (PostgreSQL's 57P01 message or the closed socket) is timing.
        var named = System.Text.RegularExpressions.Regex.Match(finished.Error ?? "", "SyncDataSource's users/arrow broke after [0-9,]+ rows: reading the users table failed: (.+)");
        Assert.True(named.Success, finished.Error);
        Assert.Matches("terminating connection due to administrator command|Exception while reading from stream", named.Groups[1].Value);
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }

    [Theory]
    [MemberData(nameof(CopyWriters))]
    public async Task Cancelling_mid_stream_rolls_back_and_records_cancelled(string insert)
    {
        var run = await lab.StartAndWaitMidStreamAsync("ArrowStream", insert);

        using (var cancel = await lab.Api.CancelAsync(run.Id))
        {
            Assert.Equal(System.Net.HttpStatusCode.Accepted, cancel.StatusCode);
        }

        lab.Proxy.Reset();
        var finished = await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(30));
        Assert.Equal(RunStatus.Cancelled, finished.Status);
        Assert.Contains("Cancelled on request", finished.Error);
        await AssertTargetUntouchedAsync();
        await lab.AssertHealthyAndSyncingAsync();
    }
}
