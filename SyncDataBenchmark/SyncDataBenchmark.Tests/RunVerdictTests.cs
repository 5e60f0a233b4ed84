using SyncData.Harness;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: when a run counts. SomeService's word is not enough: the runner's own read of the target decides, and the services must have run the item's profile.</summary>
[Trait("Tier", "Fast")]
public sealed class RunVerdictTests
{
    private static readonly TableChecksum Source = new(1_000, "abc");

    private static RunResult Result(string status = RunStatus.Succeeded, bool verified = true, RuntimeSettings? runtime = null) => new()
    {
        Id = Guid.NewGuid(), Fetch = "NpgsqlCopy", Insert = "NpgsqlCopy", Status = status, Verified = verified, StartedAt = DateTimeOffset.UnixEpoch, DurationMs = 1,
        SomeService = runtime is null ? null : new ServiceFigures(1, 0, 0, 0, 0, 0, null, 0, Runtime: runtime),
    };

    [Fact]
    public void A_verified_run_counts_only_when_the_runner_finds_the_target_equal_to_the_source()
    {
        Assert.Null(RunVerdict.Of(Result(), Source, Source, null));
        Assert.Contains("the runner finds the target different from the source", RunVerdict.Of(Result(), Source, new TableChecksum(1, "sentinel"), null));
        Assert.Equal("The run succeeded but was not verified.", RunVerdict.Of(Result(verified: false), Source, Source, null));
        Assert.StartsWith($"{RunStatus.Failed}: ", RunVerdict.Of(Result(RunStatus.Failed, verified: false), Source, Source, null));
    }

    [Fact]
    public void A_run_under_other_runtime_settings_than_its_profile_does_not_count()
    {
        var workstation = new RuntimeSettings(ServerGc: false, ConcurrentGc: true, DynamicAdaptationMode: 0, Gen0MaxBudgetBytes: 0, HeapCount: 1, ThreadPoolSpinLimit: 70);

        Assert.StartsWith("Not profile default: SomeService ran Workstation GC", RunVerdict.Of(Result(runtime: workstation), Source, Source, RuntimeProfiles.Default));
        Assert.Null(RunVerdict.Of(Result(runtime: workstation), Source, Source, RuntimeProfiles.Workstation));
        // Services someone else started: no profile to hold them to.
        Assert.Null(RunVerdict.Of(Result(runtime: workstation), Source, Source, null));
    }
}
