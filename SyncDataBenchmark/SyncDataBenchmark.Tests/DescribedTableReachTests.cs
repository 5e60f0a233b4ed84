using SomeService;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: which approaches carry a table the lab has no classes for (docs/own-table.md): the COPY bytes relayed into
/// the COPY-bytes writers, nothing that builds typed rows, no merge without a primary key or with a GENERATED ALWAYS
/// identity outside it; each refusal names why.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class DescribedTableReachTests
{
    private static readonly TableDescription Keyed = new("Team Sales", "Order Lines", [], ["region"], [], [], [], []);
    private static readonly TableDescription Keyless = Keyed with { PrimaryKey = [] };

    private static string? WhyNot(string fetch, string insert, TableDescription table) =>
        DescribedTableReach.WhyNot(ApproachRegistry.Catalog[new FetchApproach(fetch)], ApproachRegistry.Catalog[new InsertApproach(insert)], table);

    [Fact]
    public void Only_the_copy_bytes_relayed_into_a_copy_bytes_writer_carries_a_described_table()
    {
        var carried = ApproachRegistry.Catalog.RunnableCombinations
            .Where(c => DescribedTableReach.WhyNot(ApproachRegistry.Catalog[c.Fetch], ApproachRegistry.Catalog[c.Insert], Keyed) is null)
            .Select(c => $"{c.Fetch}:{c.Insert}");

        Assert.Equal(["NpgsqlCopy:NpgsqlCopyRaw", "NpgsqlCopy:NpgsqlCopyRawMerge", "NpgsqlCopy:NpgsqlCopyRawTuned"], carried.Order(StringComparer.Ordinal));
    }

    [Theory]
    [InlineData("EFStream", "NpgsqlCopy", "EFStream builds each row as a typed object")]
    [InlineData("ArrowStream", "NpgsqlCopyRaw", "ArrowStream builds each row as a typed object")]
    [InlineData("NpgsqlCopyChanges", "NpgsqlCopyRawMerge", "NpgsqlCopyChanges reads the change log")]
    [InlineData("NpgsqlCopy", "Linq2DBCopy", "Linq2DBCopy writes typed rows")]
    public void Each_approach_that_cannot_carry_it_says_why(string fetch, string insert, string why) =>
        Assert.StartsWith(why, WhyNot(fetch, insert, Keyed));

    [Fact]
    public void A_merge_into_a_table_without_a_primary_key_is_refused_for_that() =>
        Assert.Equal("NpgsqlCopyRawMerge merges by primary key, and \"Team Sales\".\"Order Lines\" has none", WhyNot("NpgsqlCopy", "NpgsqlCopyRawMerge", Keyless));

    [Fact]
    public void A_merge_into_a_table_with_a_generated_always_identity_in_its_key_is_carried() =>
        Assert.Null(WhyNot("NpgsqlCopy", "NpgsqlCopyRawMerge", Keyed with { Columns = [Column("region", "a")] }));

    [Fact]
    public void A_merge_into_a_table_with_a_generated_always_identity_outside_its_key_is_refused_for_that() =>
        Assert.Equal("NpgsqlCopyRawMerge cannot update \"Team Sales\".\"Order Lines\"'s column \"Line No\" to the source's value: " +
                     "it is GENERATED ALWAYS AS IDENTITY outside the primary key, which UPDATE sets only to DEFAULT",
            WhyNot("NpgsqlCopy", "NpgsqlCopyRawMerge", Keyed with { Columns = [Column("region", ""), Column("Line No", "a")] }));

    private static TableColumn Column(string name, string identity) => new(name, "bigint", "int8send", true, null, identity, null);
}
