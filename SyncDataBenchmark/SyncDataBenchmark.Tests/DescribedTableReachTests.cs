using SomeService;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: which approaches carry a table the lab has no classes for (docs/own-table.md): the COPY bytes relayed into
/// the COPY-bytes writers, the typed reload writers through the row class generated from the catalog when every column's
/// type is one the generator maps (ColumnClrTypes), the EF fetches into those same writers (the entity generated on
/// both sides; the paging fetches given the key they page by), no other fetch, no merge without a primary key or with a GENERATED
/// ALWAYS identity outside it; each refusal names why (the writer, its library, the column and its type).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class DescribedTableReachTests
{
    private static readonly TableDescription Keyed = new("Team Sales", "Order Lines", [], ["region"], [], [], [], []);
    private static readonly TableDescription Keyless = Keyed with { PrimaryKey = [] };

    private static string? WhyNot(string fetch, string insert, TableDescription table) =>
        DescribedTableReach.WhyNot(ApproachRegistry.Catalog[new FetchApproach(fetch)], ApproachRegistry.Catalog[new InsertApproach(insert)], table);

    /// <summary>The writers that carry a described table through its generated row class, with the library each declares.</summary>
    private static IEnumerable<(string Name, string? Library)> GeneratedRowWriters =>
        ApproachRegistry.Catalog.All.Where(a => a.Kind == ApproachKind.Insert && a.Traits.HasFlag(ApproachTraits.GeneratedRows)).Select(a => (a.Name, a.Library));

    /// <summary>
    /// What each writer declares on its class, written out: a writer that loses (or gains) a Library or a trait changes
    /// which described tables it is offered and how its refusals read, so the change must be made here too. The same
    /// as the runner reads from SomeService.dll's metadata.
    /// </summary>
    [Fact]
    public void Each_writer_declares_its_library_and_what_a_described_table_needs_for_it()
    {
        string[] expected =
        [
            "EFBulk|EFCore.BulkExtensions|GeneratedRows, StoreTypeNamed, EFTracked",
            "EFBulkMerge|EFCore.BulkExtensions|GeneratedRows, Inserts, StoreTypeNamed, EFTracked",
            "EFMerge|EF Core|GeneratedRows, Inserts, EFTracked",
            "EFTypical|EF Core|GeneratedRows, Inserts, EFTracked",
            "Linq2DB|linq2db|GeneratedRows, Inserts",
            "Linq2DBCopy|linq2db|GeneratedRows, StoreTypeNamed",
            "Linq2DBMerge|linq2db|GeneratedRows, Inserts",
            "Linq2DBTempMerge|linq2db|GeneratedRows, Inserts, StoreTypeNamed",
            "NpgsqlCopy|Npgsql's binary importer|GeneratedRows",
            "NpgsqlCopyMerge|Npgsql's binary importer|GeneratedRows",
            "NpgsqlCopyRaw|Npgsql's raw binary copy|None",
            "NpgsqlCopyRawMerge|Npgsql's raw binary copy|None",
            "NpgsqlCopyRawTuned|Npgsql's raw binary copy|None",
            "NpgsqlCopyTuned|Npgsql's binary importer|GeneratedRows",
        ];
        foreach (var catalog in new[] { ApproachRegistry.Catalog, ApproachMetadata.Catalog })
        {
            var declared = catalog.All.Where(a => a.Kind == ApproachKind.Insert).OrderBy(a => a.Name, StringComparer.Ordinal).Select(a => $"{a.Name}|{a.Library}|{a.Traits}");
            Assert.Equal(expected, declared);
        }

        // Each trait as the sets DescribedTableReach held before the writers declared them, and Linq2DBMerge since its keys are generated.
        Assert.Equal(["EFBulk", "EFBulkMerge", "EFMerge", "EFTypical", "Linq2DB", "Linq2DBCopy", "Linq2DBMerge", "Linq2DBTempMerge", "NpgsqlCopy", "NpgsqlCopyMerge", "NpgsqlCopyTuned"],
            Declaring(ApproachTraits.GeneratedRows));
        Assert.Equal(["EFBulkMerge", "EFMerge", "EFTypical", "Linq2DB", "Linq2DBMerge", "Linq2DBTempMerge"], Declaring(ApproachTraits.Inserts));
        Assert.Equal(["EFBulk", "EFBulkMerge", "Linq2DBCopy", "Linq2DBTempMerge"], Declaring(ApproachTraits.StoreTypeNamed));
        Assert.Equal(["EFBulk", "EFBulkMerge", "EFMerge", "EFTypical"], Declaring(ApproachTraits.EFTracked));
    }

    private static IEnumerable<string> Declaring(ApproachTraits trait) =>
        ApproachRegistry.Catalog.All.Where(a => a.Kind == ApproachKind.Insert && a.Traits.HasFlag(trait)).Select(a => a.Name).Order(StringComparer.Ordinal);

    /// <summary>
    /// The EF fetches read and send a described table through generated classes, each with the key it pages by, and
    /// ArrowStream and GrpcStream in a derived schema or generated messages into them; the runner reads the same from metadata.
    /// </summary>
    [Fact]
    public void The_typed_fetches_carry_a_described_table_through_generated_classes_each_with_the_key_it_pages_by()
    {
        foreach (var catalog in new[] { ApproachRegistry.Catalog, ApproachMetadata.Catalog })
        {
            var declared = catalog.All.Where(a => a.Kind == ApproachKind.Fetch && a.Traits != ApproachTraits.None).OrderBy(a => a.Name, StringComparer.Ordinal).Select(a => $"{a.Name}|{a.Traits}");
            Assert.Equal(["ArrowStream|GeneratedRows", "EFKeysetPaging|GeneratedRows, Keyed", "EFOffsetPaging|GeneratedRows, Keyed", "EFStream|GeneratedRows", "GrpcStream|GeneratedRows"], declared);
        }
    }

    [Fact]
    public void The_copy_fetch_into_a_copy_bytes_writer_and_every_typed_fetch_into_a_typed_writer_carry_a_described_table_of_mapped_types()
    {
        var carried = ApproachRegistry.Catalog.RunnableCombinations
            .Where(c => DescribedTableReach.WhyNot(ApproachRegistry.Catalog[c.Fetch], ApproachRegistry.Catalog[c.Insert], Keyed) is null)
            .Select(c => $"{c.Fetch}:{c.Insert}");

        // ArrowStream into the raw writers (its COPY bytes encoded from the description), keyset paging on any key, the merges on any key.
        Assert.Equal(["ArrowStream:EFBulk", "ArrowStream:EFBulkMerge", "ArrowStream:EFMerge", "ArrowStream:EFTypical", "ArrowStream:Linq2DB", "ArrowStream:Linq2DBCopy", "ArrowStream:Linq2DBMerge",
            "ArrowStream:Linq2DBTempMerge", "ArrowStream:NpgsqlCopy", "ArrowStream:NpgsqlCopyMerge", "ArrowStream:NpgsqlCopyRaw", "ArrowStream:NpgsqlCopyRawMerge", "ArrowStream:NpgsqlCopyRawTuned", "ArrowStream:NpgsqlCopyTuned",
            "EFKeysetPaging:EFBulk", "EFKeysetPaging:EFBulkMerge", "EFKeysetPaging:EFMerge", "EFKeysetPaging:EFTypical", "EFKeysetPaging:Linq2DB", "EFKeysetPaging:Linq2DBCopy",
            "EFKeysetPaging:Linq2DBMerge", "EFKeysetPaging:Linq2DBTempMerge", "EFKeysetPaging:NpgsqlCopy", "EFKeysetPaging:NpgsqlCopyMerge", "EFKeysetPaging:NpgsqlCopyTuned",
            "EFOffsetPaging:EFBulk", "EFOffsetPaging:EFBulkMerge", "EFOffsetPaging:EFMerge", "EFOffsetPaging:EFTypical", "EFOffsetPaging:Linq2DB", "EFOffsetPaging:Linq2DBCopy",
            "EFOffsetPaging:Linq2DBMerge", "EFOffsetPaging:Linq2DBTempMerge", "EFOffsetPaging:NpgsqlCopy", "EFOffsetPaging:NpgsqlCopyMerge", "EFOffsetPaging:NpgsqlCopyTuned",
            "EFStream:EFBulk", "EFStream:EFBulkMerge", "EFStream:EFMerge", "EFStream:EFTypical", "EFStream:Linq2DB", "EFStream:Linq2DBCopy",
            "EFStream:Linq2DBMerge", "EFStream:Linq2DBTempMerge", "EFStream:NpgsqlCopy", "EFStream:NpgsqlCopyMerge", "EFStream:NpgsqlCopyTuned",
            "GrpcStream:EFBulk", "GrpcStream:EFBulkMerge", "GrpcStream:EFMerge", "GrpcStream:EFTypical", "GrpcStream:Linq2DB", "GrpcStream:Linq2DBCopy",
            "GrpcStream:Linq2DBMerge", "GrpcStream:Linq2DBTempMerge", "GrpcStream:NpgsqlCopy", "GrpcStream:NpgsqlCopyMerge", "GrpcStream:NpgsqlCopyTuned",
            "NpgsqlCopy:EFBulk", "NpgsqlCopy:EFBulkMerge", "NpgsqlCopy:EFMerge", "NpgsqlCopy:EFTypical", "NpgsqlCopy:Linq2DB", "NpgsqlCopy:Linq2DBCopy", "NpgsqlCopy:Linq2DBMerge",
            "NpgsqlCopy:Linq2DBTempMerge", "NpgsqlCopy:NpgsqlCopy", "NpgsqlCopy:NpgsqlCopyMerge", "NpgsqlCopy:NpgsqlCopyRaw", "NpgsqlCopy:NpgsqlCopyRawMerge", "NpgsqlCopy:NpgsqlCopyRawTuned", "NpgsqlCopy:NpgsqlCopyTuned"],
            carried.Order(StringComparer.Ordinal));
    }

    [Theory]
    [InlineData("bool", "b", "", "bool")]
    [InlineData("int2", "b", "", "short")]
    [InlineData("int4", "b", "", "int")]
    [InlineData("int8", "b", "", "long")]
    [InlineData("float4", "b", "", "float")]
    [InlineData("float8", "b", "", "double")]
    [InlineData("numeric", "b", "", "decimal")]
    [InlineData("text", "b", "", "string")]
    [InlineData("varchar", "b", "", "string")]
    [InlineData("bpchar", "b", "", "string")]
    [InlineData("uuid", "b", "", "System.Guid")]
    [InlineData("timestamp", "b", "", "System.DateTime")]
    [InlineData("timestamptz", "b", "", "System.DateTime")]
    [InlineData("date", "b", "", "System.DateOnly")]
    [InlineData("time", "b", "", "System.TimeOnly")]
    [InlineData("bytea", "b", "", "byte[]")]
    [InlineData("json", "b", "", "string")]
    [InlineData("jsonb", "b", "", "string")]
    [InlineData("_text", "b", "text", "string?[]")]
    [InlineData("interval", "b", "", "NodaTime.Period")]
    [InlineData("xml", "b", "", "string")]
    [InlineData("macaddr", "b", "", "System.Net.NetworkInformation.PhysicalAddress")]
    [InlineData("macaddr8", "b", "", "System.Net.NetworkInformation.PhysicalAddress")]
    [InlineData("point", "b", "", "NpgsqlTypes.NpgsqlPoint")]
    [InlineData("circle", "b", "", "NpgsqlTypes.NpgsqlCircle")]
    [InlineData("inet", "b", "", "NpgsqlTypes.NpgsqlInet")]
    [InlineData("cidr", "b", "", "System.Net.IPNetwork")]
    [InlineData("money", "b", "", "decimal")]
    [InlineData("bit", "b", "", "System.Collections.BitArray")]
    [InlineData("varbit", "b", "", "System.Collections.BitArray")]
    [InlineData("_int4", "b", "int4", "int?[]")]
    [InlineData("_numeric", "b", "numeric", "decimal?[]")]
    [InlineData("_timestamptz", "b", "timestamptz", "System.DateTime?[]")]
    [InlineData("_jsonb", "b", "jsonb", "string?[]")]
    [InlineData("int4range", "r", "", "NpgsqlTypes.NpgsqlRange<int>")]
    [InlineData("tstzrange", "r", "", "NpgsqlTypes.NpgsqlRange<System.DateTime>")]
    [InlineData("datemultirange", "m", "", "NpgsqlTypes.NpgsqlRange<System.DateOnly>[]")]
    [InlineData("tsvector", "b", "", "NpgsqlTypes.NpgsqlTsVector")]
    [InlineData("tsquery", "b", "", "NpgsqlTypes.NpgsqlTsQuery")]
    [InlineData("", "e", "", "")]
    public void Each_mapped_type_has_the_clr_type_efs_npgsql_provider_maps_it_to(string name, string kind, string element, string clr)
    {
        var mapped = ColumnClrTypes.Of(Typed("c", name, kind, element), out var why);
        Assert.True(mapped is not null, why);
        Assert.Equal(clr, mapped.ClrType);
    }

    [Theory]
    [InlineData("box", "b", "", "box", "the generator does not map this type")]
    [InlineData("_tsvector", "b", "tsvector", "tsvector[]", "the generator maps arrays of bool, int2/4/8")]
    [InlineData("", "r", "", "\"Team Sales\".floatrange", "the generator maps the built-in ranges and multiranges")]
    [InlineData("_macaddr", "b", "macaddr", "macaddr[]", "the generator maps arrays of bool, int2/4/8")]
    [InlineData("", "c", "", "\"Team Sales\".point3", "the generator maps no user-defined type but an enum or a domain over a type it maps")]
    public void A_typed_writer_is_refused_a_table_with_a_column_of_a_type_the_generator_does_not_map_naming_library_column_and_type(
        string name, string kind, string element, string type, string why)
    {
        var table = Keyed with { Columns = [Typed("region", "int4", "b", ""), Typed("odd one", name, kind, element) with { Type = type }] };
        foreach (var (insert, library) in GeneratedRowWriters)
        {
            foreach (var fetch in new[] { "NpgsqlCopy", "EFStream" })
            {
                Assert.StartsWith($"{insert} ({library}) writes rows of a class generated from the table's catalog, and \"Team Sales\".\"Order Lines\"'s column \"odd one\" is {type}: {why}",
                    WhyNot(fetch, insert, table));
            }
        }

        // The COPY bytes need no row class: the raw relays still carry it; ArrowStream's COPY bytes are derived from the class's types.
        Assert.Null(WhyNot("NpgsqlCopy", "NpgsqlCopyRaw", table));
        Assert.StartsWith($"ArrowStream derives its wire format from the class generated from the table's catalog, and \"Team Sales\".\"Order Lines\"'s column \"odd one\" is {type}: {why}",
            WhyNot("ArrowStream", "NpgsqlCopyRaw", table));
    }

    [Fact]
    public void A_generated_column_of_an_unmapped_type_is_no_bar_the_database_computes_it() =>
        Assert.Null(WhyNot("NpgsqlCopy", "EFBulk", Keyed with { Columns = [Typed("region", "int4", "b", ""), Typed("words", "box", "b", "") with { Generated = "x" }] }));

    /// <summary>interval goes to every typed writer from NpgsqlCopy's COPY decoder; the typed fetches' generated wire formats carry none yet.</summary>
    [Fact]
    public void An_interval_is_carried_from_the_copy_fetch_into_every_typed_writer_and_refused_by_the_typed_fetches()
    {
        var table = Keyed with { Columns = [Typed("region", "int4", "b", ""), Typed("span", "interval", "b", "") with { Type = "interval" }] };
        foreach (var (insert, _) in GeneratedRowWriters)
        {
            Assert.Null(WhyNot("NpgsqlCopy", insert, table));
        }

        foreach (var fetch in new[] { "EFStream", "EFOffsetPaging", "EFKeysetPaging", "ArrowStream", "GrpcStream" })
        {
            Assert.StartsWith($"{fetch} sends rows in a wire format generated per type (JSON, Arrow's schema, the table's .proto), which carries no interval yet, " +
                              "and \"Team Sales\".\"Order Lines\"'s column \"span\" is interval", WhyNot(fetch, "NpgsqlCopy", table));
        }
    }

    [Fact]
    public void A_domain_is_mapped_as_the_type_it_stands_for() =>
        Assert.Null(WhyNot("NpgsqlCopy", "EFTypical", Keyed with { Columns = [Typed("region", "int4", "b", "") with { Type = "\"Team Sales\".positive_int" }] }));

    [Theory]
    [InlineData("EFTypical", "EFTypical (EF Core) INSERTs, and \"Team Sales\".\"Order Lines\"'s column \"id\" is GENERATED ALWAYS AS IDENTITY")]
    [InlineData("Linq2DB", "Linq2DB (linq2db) INSERTs, and \"Team Sales\".\"Order Lines\"'s column \"id\" is GENERATED ALWAYS AS IDENTITY")]
    [InlineData("EFBulk", null)]
    [InlineData("Linq2DBCopy", null)]
    [InlineData("NpgsqlCopy", null)]
    public void Only_the_writers_that_insert_are_refused_a_generated_always_identity(string insert, string? why)
    {
        var reason = WhyNot("NpgsqlCopy", insert, Keyed with { Columns = [Typed("id", "int8", "b", "") with { Identity = "a" }] });
        if (why is null)
        {
            Assert.Null(reason);
        }
        else
        {
            Assert.StartsWith(why, reason);
        }
    }

    [Theory]
    [InlineData("EFTypical", true)]
    [InlineData("EFBulk", true)]
    [InlineData("Linq2DB", false)]
    [InlineData("Linq2DBCopy", false)]
    [InlineData("NpgsqlCopy", false)]
    public void The_ef_writers_are_refused_a_table_without_a_primary_key(string insert, bool refused) =>
        Assert.Equal(refused, WhyNot("NpgsqlCopy", insert, Keyless with { Columns = [Typed("n", "int4", "b", "")] })?.Contains("has no primary key", StringComparison.Ordinal) == true);

    [Theory]
    [InlineData("Team Sales", "mood", "EFBulk", true)]
    [InlineData("team_types", "Shipping Mode", "Linq2DBCopy", true)]
    [InlineData("team_types", "shipping_mode", "EFBulk", false)]
    [InlineData("Team Sales", "mood", "EFTypical", false)]
    [InlineData("Team Sales", "mood", "Linq2DB", false)]
    public void The_writers_that_copy_by_efs_store_type_name_are_refused_an_enum_whose_name_sql_must_quote(string schema, string name, string insert, bool refused)
    {
        var column = Typed("mode", "", "e", "") with { Base = new ColumnBaseType("", "e", -1, "", schema, name, ["a"], name) };
        var reason = WhyNot("NpgsqlCopy", insert, Keyed with { Columns = [Typed("region", "int4", "b", ""), column] });
        Assert.Equal(refused, reason?.Contains("the enum's SQL-quoted name", StringComparison.Ordinal) == true);
    }

    /// <summary>The merges and keyset paging key on the whole primary key, whatever its columns' number and types.</summary>
    [Theory]
    [InlineData("NpgsqlCopy", "EFMerge")]
    [InlineData("NpgsqlCopy", "EFBulkMerge")]
    [InlineData("NpgsqlCopy", "Linq2DBMerge")]
    [InlineData("EFKeysetPaging", "NpgsqlCopy")]
    public void The_approaches_that_find_rows_by_key_take_a_key_of_any_columns_and_types(string fetch, string insert)
    {
        foreach (var key in new[] { "int4", "int8", "uuid", "text", "date" })
        {
            var columns = new[] { Typed("region", "int2", "b", ""), Typed("line", key, "b", "") };
            Assert.Null(WhyNot(fetch, insert, Keyed with { PrimaryKey = ["region", "line"], Columns = [.. columns] }));
            Assert.Null(WhyNot(fetch, insert, Keyed with { PrimaryKey = ["line"], Columns = [.. columns] }));
        }
    }

    [Fact]
    public void A_typed_merge_needs_a_primary_key_as_every_merge_does() =>
        Assert.Equal("NpgsqlCopyMerge merges by primary key, and \"Team Sales\".\"Order Lines\" has none",
            WhyNot("NpgsqlCopy", "NpgsqlCopyMerge", Keyless with { Columns = [Typed("n", "int4", "b", "")] }));

    private static TableColumn Typed(string name, string baseName, string kind, string element) =>
        new(name, baseName, "-", true, null, "", null, new ColumnBaseType(baseName, kind, -1, element, "pg_catalog", baseName, [], baseName));

    [Theory]
    [InlineData("GrpcStream", "NpgsqlCopyRaw", "NpgsqlCopyRaw writes PostgreSQL's COPY bytes, which GrpcStream does not hand over")]
    [InlineData("EFStream", "NpgsqlCopyRaw", "NpgsqlCopyRaw writes PostgreSQL's COPY bytes, which EFStream does not hand over")]
    [InlineData("NpgsqlCopyChanges", "NpgsqlCopyRawMerge", "NpgsqlCopyChanges reads the change log")]
    [InlineData("NpgsqlCopyChanges", "EFBulk", "NpgsqlCopyChanges reads the change log")]
    public void Each_approach_that_cannot_carry_it_says_why(string fetch, string insert, string why) =>
        Assert.StartsWith(why, WhyNot(fetch, insert, Keyed));

    [Theory]
    [InlineData("EFOffsetPaging")]
    [InlineData("EFKeysetPaging")]
    public void The_paging_fetches_are_refused_a_table_without_a_primary_key(string fetch) =>
        Assert.Equal($"{fetch} cuts its pages in primary-key order, and \"Team Sales\".\"Order Lines\" has no primary key", WhyNot(fetch, "NpgsqlCopy", Keyless));

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
