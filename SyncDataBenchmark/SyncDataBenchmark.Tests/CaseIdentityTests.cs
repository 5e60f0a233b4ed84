using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: a case's names are written once (CaseIdentity): the plan's and the record's agree, and a plain value
/// (uncompressed, users, no share) adds nothing, so a classic case keeps its names.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class CaseIdentityTests
{
    private static readonly Combination Copy = new(9, new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopy"));

    [Fact]
    public void A_plain_case_keeps_its_classic_names()
    {
        var item = new PlanItem(0, 1, false, Copy, null, RuntimeProfiles.Default, true, 1000, SyncTable.Users);
        Assert.Equal("NpgsqlCopy:NpgsqlCopy", item.Key);
        Assert.Equal("#9 NpgsqlCopy × NpgsqlCopy", item.Title);
        Assert.Equal("9.png", item.Identity.Picture(null));
        Assert.Equal("", item.Identity.Split);
    }

    [Fact]
    public void The_plan_and_the_record_name_a_case_alike_along_every_dimension()
    {
        var item = new PlanItem(0, 1, false, Copy with { Compression = BodyCompression.Gzip }, null, RuntimeProfiles.Workstation, false, 1000, SyncTable.Orders) { Share = 0.01 };
        var run = new CombinationRun
        {
            Number = 9, Case = item.Case, Fetch = "NpgsqlCopy", Insert = "NpgsqlCopy", Compression = BodyCompression.Gzip, WallMs = 1, Round = 1, Warmup = false,
            Table = SyncTable.Orders.Name, Changed = "1%",
        };

        Assert.Equal("NpgsqlCopy:NpgsqlCopy[gzip][orders][1%]", item.Case);
        Assert.Equal(item.Case + "@" + RuntimeProfiles.Workstation.Name, item.Key);
        Assert.Equal($"#9 NpgsqlCopy × NpgsqlCopy [gzip] [orders] [1%] [{RuntimeProfiles.Workstation.Name}]", item.Title);
        Assert.Equal(item.Identity, run.Identity);
        Assert.Equal("9-gzip-orders-1pct-tuned.png", run.Identity.Picture("tuned"));
        Assert.Equal("-orders-1%", run.Identity.Split);
    }

    [Fact]
    public void A_peer_is_named_by_its_key_and_name_on_its_table()
    {
        var peer = PeerDefinition.Find(PeerDefinition.PsqlBinaryKey)!;
        var item = new PlanItem(0, 1, false, null, peer, RuntimeProfiles.Default, true, 1000, SyncTable.Orders);
        var run = new PeerRun { Peer = peer.Key, Status = RunStatus.Succeeded, Scope = PeerScopes.TargetStatements, Round = 1, Warmup = false, Table = SyncTable.Orders.Name };

        Assert.Equal("psql-binary[orders]", item.Case);
        Assert.Equal($"peer: {peer.Name} [orders]", item.Title);
        Assert.Equal(item.Identity, run.Identity);
    }
}
