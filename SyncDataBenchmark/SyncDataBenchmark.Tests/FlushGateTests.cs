using NpgsqlTypes;
using SomeService.Follow;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the follower's acknowledgements under asynchronous commit (FlushGate): a source position is released only
/// once the target has flushed the commit that stored it and every one before it; a heartbeat's position (nothing
/// stored) waits for the batch before it. The crash itself: ReplicationTests' target crash test.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class FlushGateTests
{
    private static NpgsqlLogSequenceNumber Lsn(ulong value) => new(value);

    [Fact]
    public void A_position_is_released_only_once_its_commit_and_every_one_before_it_is_flushed()
    {
        var gate = new FlushGate();
        gate.Passed("0/5");                // a heartbeat before any batch: nothing to wait for
        Assert.Equal("0/5", gate.Release(Lsn(0)));
        gate.Applied("0/10", Lsn(1_000));
        gate.Applied("0/20", Lsn(2_000));
        gate.Passed("0/25");               // a heartbeat after them: released with the batch before it, not sooner

        Assert.Null(gate.Release(Lsn(999)));
        Assert.True(gate.HasPending);
        Assert.Equal("0/10", gate.Release(Lsn(1_500)));
        Assert.Equal("0/25", gate.Release(Lsn(2_000)));
        Assert.False(gate.HasPending);
        Assert.Null(gate.Release(Lsn(5_000)));
    }
}
