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
        gate.Committed("0/5");               // where its commit lies is not known yet: nothing is released
                Assert.Equal("0/5", gate.Observe(Lsn(900), Lsn(900)));
        gate.Committed("0/10");
        gate.Committed("0/20");
        gate.Committed("0/25");              // a heartbeat after them: released with the batch before it, not sooner

        Assert.Null(gate.Observe(Lsn(2_000), Lsn(1_999)));
        Assert.True(gate.HasPending);
        gate.Committed("0/30");              // committed after the read at 2,000: lies past it
        Assert.Equal("0/25", gate.Observe(Lsn(3_000), Lsn(2_000)));
        Assert.Null(gate.Observe(Lsn(3_000), Lsn(2_999)));
        Assert.Equal("0/30", gate.Observe(Lsn(3_000), Lsn(3_000)));
        Assert.False(gate.HasPending);
    }
}
