using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;
using static SyncDataBenchmark.Tests.GeneratedRowTableLab;
using static SyncDataBenchmark.Tests.OwnTablePair;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The typed writers on a table the lab has no class for (issue 49, part 3; docs/own-table.md): SomeService generates
/// the row classes from the target's catalog and compiles them at the trigger. A team's table of every type the generator
/// maps (Fixtures/team-typed.sql), and the built-in tables seen through their catalog (public.users, public.orders: the
/// generated path on the same physical table as the written one), move and verify over every column; a value the
/// generated class cannot hold fails naming its row, column and value and leaves the target as it was. The cases share
/// one source, target and pair of services (<see cref="GeneratedRowTableLab"/>).
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class GeneratedRowTableTests(GeneratedRowTableLab shared) : IClassFixture<GeneratedRowTableLab>
{
    public static TheoryData<string, string, string> Carried()
    {
        var data = new TheoryData<string, string, string>();
        foreach (var insert in new[] { "NpgsqlCopy", "NpgsqlCopyTuned", "EFTypical", "EFBulk", "Linq2DB", "Linq2DBCopy" })
        {
            data.Add("NpgsqlCopy", insert, Typed);
            // EFStream: the source reads the table through its own generated entity and guarded query, the rows travel as JSON.
            data.Add("EFStream", insert, Typed);
        }

        foreach (var insert in new[] { "NpgsqlCopy", "NpgsqlCopyTuned", "EFTypical", "Linq2DB" })
        {
            data.Add("NpgsqlCopy", insert, QuotedEnum);
        }

        // interval as NodaTime's Period, through Npgsql's NodaTime plugins: months, days and time kept apart by every writer.
        foreach (var insert in new[] { "NpgsqlCopy", "NpgsqlCopyTuned", "EFTypical", "EFBulk", "Linq2DB", "Linq2DBCopy" })
        {
            data.Add("NpgsqlCopy", insert, Spans);
            // xml as a string; macaddr, macaddr8, point, circle as EF Core's Npgsql provider maps them.
            data.Add("NpgsqlCopy", insert, Texts);
        }

        // linq2db is refused them (it hands Npgsql a PhysicalAddress as a string): the Npgsql and EF Core writers.
        foreach (var insert in new[] { "NpgsqlCopy", "NpgsqlCopyTuned", "EFTypical", "EFBulk" })
        {
            data.Add("NpgsqlCopy", insert, OddTypes);
        }

        // money (decimal), bit and varbit (BitArray), arrays of the plain types (T?[]), ranges and multiranges
        // (NpgsqlRange<T>, NpgsqlRange<T>[]): from NpgsqlCopy's decoder into every typed writer's library (NpgsqlCopyTuned
        // writes through NpgsqlCopy's Write, so it is left out to keep the class fast).
        foreach (var insert in new[] { "NpgsqlCopy", "EFTypical", "EFBulk", "Linq2DB", "Linq2DBCopy" })
        {
            data.Add("NpgsqlCopy", insert, MoneyBits);
            data.Add("NpgsqlCopy", insert, Arrays);
            data.Add("NpgsqlCopy", insert, Ranges);
        }

        // tsvector and tsquery as Npgsql's NpgsqlTsVector and NpgsqlTsQuery, read from their binary COPY form.
        foreach (var insert in new[] { "NpgsqlCopy", "EFTypical", "EFBulk", "Linq2DB", "Linq2DBCopy" })
        {
            data.Add("NpgsqlCopy", insert, Search);
        }

        // Timestamps and dates at DateTime's and DateOnly's edges, finite ones kept finite: every writer, and every typed
        // fetch's wire format.
        foreach (var insert in new[] { "NpgsqlCopy", "EFTypical", "EFBulk", "Linq2DB", "Linq2DBCopy" })
        {
            data.Add("NpgsqlCopy", insert, Stamps);
        }

        data.Add("EFStream", "NpgsqlCopy", Stamps);
        data.Add("EFKeysetPaging", "EFBulk", Stamps);
        data.Add("ArrowStream", "EFTypical", Stamps);
        data.Add("GrpcStream", "Linq2DB", Stamps);

        // Arrays of numeric and of the character types: EFBulk is refused them (below).
        data.Add("NpgsqlCopy", "EFTypical", BulkArrays);
        data.Add("NpgsqlCopy", "Linq2DBCopy", BulkArrays);

        // xml and citext are text on every wire: the typed fetches carry them too.
        data.Add("EFStream", "EFTypical", Texts);
        data.Add("EFKeysetPaging", "Linq2DB", Texts);
        data.Add("ArrowStream", "NpgsqlCopy", Texts);
        data.Add("GrpcStream", "EFBulk", Texts);

        // ArrowStream's batches as binary COPY for the raw writers, encoded by the description (DescribedArrowCopyColumns):
        // every kind of value of the every-type table, numeric and jsonb of orders, an enum of a quoted name, xml.
        data.Add("ArrowStream", "NpgsqlCopyRaw", Typed);
        data.Add("ArrowStream", "NpgsqlCopyRawTuned", Typed);
        data.Add("ArrowStream", "NpgsqlCopyRaw", "public.orders");
        data.Add("ArrowStream", "NpgsqlCopyRaw", QuotedEnum);
        data.Add("ArrowStream", "NpgsqlCopyRaw", Texts);

        data.Add("EFStream", "EFTypical", QuotedEnum);
        foreach (var insert in new[] { "NpgsqlCopy", "EFTypical", "EFBulk", "Linq2DB", "Linq2DBCopy" })
        {
            data.Add("NpgsqlCopy", insert, "public.users");
            data.Add("NpgsqlCopy", insert, "public.orders");
        }

        foreach (var insert in new[] { "NpgsqlCopy", "EFBulk" })
        {
            data.Add("EFStream", insert, "public.users");
            data.Add("EFStream", insert, "public.orders");
        }

        // ArrowStream: both services derive the table's Arrow schema from their catalogs. GrpcStream: both generate the
        // table's .proto and compile protoc's classes (the call GrpcStreamSource/Described). SomeService reads either into
        // its generated class. The writers are the same whatever the fetch: the fetch's own part is reading each kind of
        // value, which the every-type table holds.
        foreach (var fetch in new[] { "ArrowStream", "GrpcStream" })
        {
            data.Add(fetch, "NpgsqlCopy", Typed);
            data.Add(fetch, "EFTypical", Typed);
            data.Add(fetch, "EFTypical", QuotedEnum);
            data.Add(fetch, "NpgsqlCopy", "public.users");
            data.Add(fetch, "NpgsqlCopy", "public.orders");
            data.Add(fetch, "Linq2DBTempMerge", "public.orders");
        }

        // The paging fetches, pages of 3 rows (SomeService asks for them in turn): by offset in the order of every key
        // column (the composite key too), by the rows after the whole key by row comparison: the three-column key of
        // "Typed Lines" (its second page is the rows after (2, 1, 3): compared column by column it would be empty), one
        // column of int4 ("Quoted Enum"), uuid (users) or bigint (orders).
        data.Add("EFOffsetPaging", "NpgsqlCopy", Typed);
        data.Add("EFOffsetPaging", "EFTypical", "public.orders");
        data.Add("EFKeysetPaging", "NpgsqlCopy", Typed);
        data.Add("EFKeysetPaging", "EFBulk", Typed);
        data.Add("EFKeysetPaging", "EFTypical", QuotedEnum);
        data.Add("EFKeysetPaging", "NpgsqlCopy", "public.users");
        data.Add("EFKeysetPaging", "Linq2DBCopy", "public.orders");
        return data;
    }

    [Theory]
    [MemberData(nameof(Carried))]
    public async Task A_typed_writer_moves_a_described_table_through_its_generated_class_and_verifies_every_column(string fetch, string insert, string name)
    {
        var pair = shared.Pair;
        var run = await RunAsync(pair, fetch, insert, name, pageSize: 3);
        Assert.True(run.Verified, run.Error);
        var table = await DescribeAsync(shared.Source, name);
        var source = await Lab.ReadChecksumAsync(shared.Source, table);
        Assert.Equal(source, await Lab.ReadChecksumAsync(shared.Target, table));
        Assert.Equal(source.Rows, run.Rows);
    }

    /// <summary>
    /// A generated table's page query is compiled once, not per page: EF Core's query cache keys on the expression
    /// tree, so a page's value (the offset, the key after) must reach it as a parameter, as the written users' query
    /// closes over a local. Pages of 3 rows (100 of public.users, 67 of public.orders), counted by EF Core's own events.
    /// And the guarded SELECT is the model's (ToSqlQuery, as the written context maps users), not given with every query
    /// (FromSqlRaw), whose SQL root each page request composed again: 13–16 KiB more a page than the written road.
    /// </summary>
    [Theory]
    [InlineData("EFOffsetPaging", "public.users")]
    [InlineData("EFKeysetPaging", "public.users")]
    [InlineData("EFOffsetPaging", "public.orders")]
    public async Task A_generated_page_query_is_compiled_once_not_per_page(string fetch, string name)
    {
        var pair = shared.Pair;
        using var compilations = new QueryCompilations("SyncDataSource.Generated", new Npgsql.NpgsqlConnectionStringBuilder(shared.Source).Database!);
        var run = await RunAsync(pair, fetch, "NpgsqlCopy", name, pageSize: 3);
        Assert.True(run.Verified, run.Error);
        Assert.True(compilations.Commands >= run.Rows / 3, $"{compilations.Commands} commands seen for {run.Rows} rows");
        Assert.True(compilations.Compiled <= 2, $"{compilations.Compiled} compilations for {compilations.Commands} commands");
        Assert.Equal(0, compilations.OffModel);
    }

    /// <summary>
    /// orders.exchange_rate NaN (decimal has none) and a timestamp of 0001-01-01 00:00:00 (DateTime.MinValue, which Npgsql
    /// writes as -infinity): the run fails naming the row, the column and the value, and is rolled back.
    /// </summary>
    /// <summary>SomeService's COPY decoder refuses such a value for NpgsqlCopy; for EFStream the source's guarded query does, before the row is sent.</summary>
    [Theory]
    [InlineData("NpgsqlCopy", "EFBulk", "public.orders", "exchange_rate", "numeric", "NaN", "id = 150): exchange_rate = NaN cannot be carried")]
    [InlineData("NpgsqlCopy", "Linq2DBCopy", "public.orders", "placed_at", "timestamptz", "0001-01-01 00:00:00+00", "id = 150): placed_at = 0001-01-01 00:00:00+00 cannot be carried")]
    [InlineData("NpgsqlCopy", "NpgsqlCopy", Typed, "at_time", "time", "24:00", "(Region = 2, order = 2, Line No = 4): at_time = 24:00:00 cannot be carried")]
    [InlineData("EFStream", "EFBulk", "public.orders", "exchange_rate", "numeric", "NaN", "row 150: exchange_rate = NaN cannot be read into .NET's decimal exactly")]
    [InlineData("EFStream", "Linq2DB", Typed, "at_time", "time", "24:00", "row (Region = 2, order = 2, Line No = 4): at_time = 24:00:00 cannot be read into a .NET TimeOnly")]
    [InlineData("EFStream", "NpgsqlCopy", Typed, "seen", "timestamptz", "0001-01-01 00:00:00+00", "row (Region = 2, order = 2, Line No = 4): seen = 0001-01-01 00:00:00+00 cannot be read into a .NET DateTime")]
    [InlineData("EFStream", "NpgsqlCopy", Typed, "due", "date", "9999-12-31", "row (Region = 2, order = 2, Line No = 4): due = 9999-12-31 cannot be read into a .NET DateOnly")]
    [InlineData("EFStream", "NpgsqlCopy", Typed, "price", "numeric", "NaN", "row (Region = 2, order = 2, Line No = 4): price = NaN cannot be read into .NET's decimal exactly")]
    [InlineData("EFStream", "EFTypical", "public.orders", "total", "numeric", "NaN", "row 150: total = NaN cannot be read into .NET's decimal exactly")]
    [InlineData("EFStream", "NpgsqlCopy", Typed, "total", "numeric", "Infinity", "row (Region = 2, order = 2, Line No = 4): total = Infinity cannot be read into .NET's decimal exactly")]
    [InlineData("EFStream", "NpgsqlCopy", Typed, "tags", "text[]", "{{a,b},{c,d}}", "row (Region = 2, order = 2, Line No = 4): tags = {{a,b},{c,d}} cannot be read into a .NET string?[]")]
    [InlineData("ArrowStream", "NpgsqlCopy", Typed, "at_time", "time", "24:00", "row (Region = 2, order = 2, Line No = 4): at_time = 24:00:00 cannot be read into a .NET TimeOnly")]
    [InlineData("ArrowStream", "EFBulk", "public.orders", "exchange_rate", "numeric", "NaN", "row 150: exchange_rate = NaN cannot be read into .NET's decimal exactly")]
    [InlineData("ArrowStream", "Linq2DB", Typed, "due", "date", "9999-12-31", "row (Region = 2, order = 2, Line No = 4): due = 9999-12-31 cannot be read into a .NET DateOnly")]
    [InlineData("GrpcStream", "NpgsqlCopy", Typed, "seen", "timestamptz", "0001-01-01 00:00:00+00", "row (Region = 2, order = 2, Line No = 4): seen = 0001-01-01 00:00:00+00 cannot be read into a .NET DateTime")]
    [InlineData("GrpcStream", "EFTypical", "public.orders", "total", "numeric", "NaN", "row 150: total = NaN cannot be read into .NET's decimal exactly")]
    [InlineData("GrpcStream", "Linq2DB", Typed, "tags", "text[]", "{{a,b},{c,d}}", "row (Region = 2, order = 2, Line No = 4): tags = {{a,b},{c,d}} cannot be read into a .NET string?[]")]
    [InlineData("EFOffsetPaging", "EFTypical", Typed, "at", "timestamp", "0001-01-01 00:00:00", "row (Region = 2, order = 2, Line No = 4): at = 0001-01-01 00:00:00 cannot be read into a .NET DateTime")]
    [InlineData("EFKeysetPaging", "NpgsqlCopy", "public.orders", "delivery_date", "date", "0001-01-01", "row 150: delivery_date = 0001-01-01 cannot be read into a .NET DateOnly")]
    [InlineData("NpgsqlCopy", "EFBulk", Arrays, "ints", "integer[]", "{{1,2},{3,4}}", "(id = 1): ints = an array of 2 dimension(s), the first from 1 cannot be carried")]
    [InlineData("NpgsqlCopy", "Linq2DB", Arrays, "ints", "integer[]", "[0:1]={1,2}", "(id = 1): ints = an array of 1 dimension(s), the first from 0 cannot be carried")]
    [InlineData("NpgsqlCopy", "EFTypical", BulkArrays, "nums", "numeric[]", "{1,123456789012.1234567890123456789012345678}", "(id = 1): nums = 123456789012.1234567890123456789012345678 cannot be carried")]
    [InlineData("NpgsqlCopy", "NpgsqlCopy", BulkArrays, "nums", "numeric[]", "{NaN}", "(id = 1): nums = NaN cannot be carried")]
    [InlineData("NpgsqlCopy", "EFBulk", Arrays, "at", "timestamp[]", "{\"0001-01-01 00:00:00\"}", "(id = 1): at = 0001-01-01 00:00:00 cannot be carried")]
    [InlineData("NpgsqlCopy", "Linq2DBCopy", Ranges, "rts", "tsrange", "[\"0001-01-01 00:00:00\",)", "(id = 1): rts = 0001-01-01 00:00:00 cannot be carried")]
    [InlineData("NpgsqlCopy", "EFTypical", Ranges, "mn", "nummultirange", "{[1,1e30)}", "(id = 1): mn = 1000000000000000000000000000000 cannot be carried")]
    [InlineData("NpgsqlCopy", "EFTypical", Spans, "span", "interval", "3000000 hours", "(id = 3): span = 0 months 0 days 10800000000000000 microseconds cannot be carried")]
    [InlineData("NpgsqlCopy", "Linq2DBCopy", Spans, "span", "interval", "1 day -1 hour", "(id = 3): span = 0 months 1 days -3600000000 microseconds cannot be carried")]
    [InlineData("NpgsqlCopy", "EFTypical", Search, "query", "tsquery", "", "(id = 1): query = '' (an empty tsquery) cannot be carried")]
    [InlineData("NpgsqlCopy", "EFBulk", Stamps, "tz", "timestamptz", "0001-12-31 23:59:59.999999+00 BC", "(id = 1): tz = 0001-12-31 23:59:59.999999 BC+00 cannot be carried")]
    [InlineData("NpgsqlCopy", "Linq2DB", Stamps, "ts", "timestamp", "294276-12-31 23:59:59.999999", "(id = 1): ts = 294276-12-31 23:59:59.999999 cannot be carried")]
    [InlineData("NpgsqlCopy", "EFTypical", Stamps, "d", "date", "0001-12-31 BC", "(id = 1): d = 0001-12-31 BC cannot be carried")]
    [InlineData("EFStream", "EFTypical", Stamps, "ts", "timestamp", "4713-01-01 00:00:00 BC", "row 1: ts = 4713-01-01 00:00:00 BC cannot be read into a .NET DateTime")]
    [InlineData("ArrowStream", "NpgsqlCopy", Stamps, "tz", "timestamptz", "10000-01-01 00:00:00+00", "row 1: tz = 10000-01-01 00:00:00+00 cannot be read into a .NET DateTime")]
    [InlineData("GrpcStream", "NpgsqlCopy", Stamps, "d", "date", "10000-01-01", "row 1: d = 10000-01-01 cannot be read into a .NET DateOnly")]
    [InlineData("NpgsqlCopy", "Linq2DBCopy", Typed, "total", "numeric", "-1234567890123456789012345678.9012345678", "(Region = 2, order = 2, Line No = 4): total = -1234567890123456789012345678.9012345678 cannot be carried")]
    [InlineData("NpgsqlCopy", "EFTypical", Typed, "total", "numeric", "79228162514264337593543950336", "(Region = 2, order = 2, Line No = 4): total = 79228162514264337593543950336 cannot be carried")]
    [InlineData("NpgsqlCopy", "NpgsqlCopy", Typed, "total", "numeric", "-Infinity", "(Region = 2, order = 2, Line No = 4): total = -Infinity cannot be carried")]
    [InlineData("EFStream", "EFBulk", Typed, "total", "numeric", "0.12345678901234567890123456789", "row (Region = 2, order = 2, Line No = 4): total = 0.12345678901234567890123456789 cannot be read into .NET's decimal exactly")]
    [InlineData("GrpcStream", "Linq2DB", Typed, "total", "numeric", "-Infinity", "row (Region = 2, order = 2, Line No = 4): total = -Infinity cannot be read into .NET's decimal exactly")]
    public async Task A_value_the_generated_class_cannot_hold_fails_naming_row_column_and_value_and_leaves_the_target_as_it_was(
        string fetch, string insert, string name, string column, string type, string value, string named)
    {
        var pair = shared.Pair;
        Assert.True((await RunAsync(pair, "NpgsqlCopyRaw", name)).Verified);
        var table = await DescribeAsync(shared.Source, name);
        var before = await Lab.ReadChecksumAsync(shared.Target, table);
        var where = name switch { Typed => "\"Region\" = 2 and \"order\" = 2", Spans => "id = 3", Arrays or Ranges or BulkArrays or Stamps or Search => "id = 1", _ => "id = 150" };
        var original = (string?)await Lab.ScalarAsync(shared.Source, $"select {column}::text from {table.SqlName} where {where}");
        await Lab.ScalarAsync(shared.Source, $"update {table.SqlName} set {column} = $1::{type} where {where}", [value]);
        try
        {
            var run = await RunAsync(pair, fetch, insert, name);
            Assert.True(run.Status == RunStatus.Failed, run.Error);
            Assert.Contains(named, run.Error, StringComparison.Ordinal);
            Assert.Equal(before, await Lab.ReadChecksumAsync(shared.Target, table));
        }
        finally
        {
            await Lab.ScalarAsync(shared.Source, $"update {table.SqlName} set {column} = $1::{type} where {where}", [(object?)original ?? DBNull.Value]);
        }
    }

    /// <summary>(table, the fixture that makes its target differ: rows missing, rows altered, an extra row the merge must delete).</summary>
    private static readonly Dictionary<string, string> Drift = new()
    {
        [Typed] = "team-typed-drift-typed.sql",
        ["public.users"] = "team-typed-drift-users.sql",
        ["public.orders"] = "team-typed-drift-orders.sql",
        [Spans] = "team-intervals-drift.sql",
        [OddTypes] = "team-odd-types-drift.sql",
        [MoneyBits] = "team-more-types-drift.sql",
        [Arrays] = "team-more-types-drift.sql",
        [Ranges] = "team-more-types-drift.sql",
        [BulkArrays] = "team-more-types-drift.sql",
        [Search] = "team-more-types-drift.sql",
        [Stamps] = "team-more-types-drift.sql",
    };

    /// <summary>The merge writers the generated row table serves, on a target made to differ from the source: equal to it afterwards over every column.</summary>
    [Theory]
    [InlineData("NpgsqlCopyMerge", Typed)]
    [InlineData("NpgsqlCopyMerge", "public.orders")]
    [InlineData("EFMerge", "public.users")]
    [InlineData("EFMerge", "public.orders")]
    [InlineData("EFBulkMerge", "public.users")]
    [InlineData("EFBulkMerge", "public.orders")]
    [InlineData("EFBulkMerge", Typed)]
    [InlineData("Linq2DBTempMerge", "public.users")]
    [InlineData("Linq2DBTempMerge", "public.orders")]
    [InlineData("Linq2DBTempMerge", Typed)]
    [InlineData("Linq2DBMerge", "public.users")]
    [InlineData("Linq2DBMerge", "public.orders")]
    [InlineData("Linq2DBMerge", Typed)]
    [InlineData("NpgsqlCopyMerge", Spans)]
    [InlineData("EFMerge", Spans)]
    [InlineData("EFBulkMerge", Spans)]
    [InlineData("Linq2DBTempMerge", Spans)]
    [InlineData("Linq2DBMerge", Spans)]
    [InlineData("NpgsqlCopyMerge", OddTypes)]
    [InlineData("EFMerge", OddTypes)]
    [InlineData("EFBulkMerge", OddTypes)]
    [InlineData("NpgsqlCopyMerge", MoneyBits)]
    [InlineData("EFMerge", MoneyBits)]
    [InlineData("Linq2DBMerge", MoneyBits)]
    [InlineData("NpgsqlCopyMerge", Arrays)]
    [InlineData("EFMerge", Arrays)]
    [InlineData("EFBulkMerge", Arrays)]
    [InlineData("Linq2DBMerge", BulkArrays)]
    [InlineData("Linq2DBTempMerge", Arrays)]
    [InlineData("EFMerge", Ranges)]
    [InlineData("Linq2DBMerge", Ranges)]
    [InlineData("NpgsqlCopyMerge", Search)]
    [InlineData("EFMerge", Search)]
    [InlineData("Linq2DBTempMerge", Search)]
    [InlineData("EFMerge", Stamps)]
    [InlineData("Linq2DBMerge", Stamps)]
    public async Task A_merge_writer_makes_a_differing_target_equal_to_the_source_through_the_generated_class(string insert, string name)
    {
        var pair = shared.Pair;
        Assert.True((await RunAsync(pair, "NpgsqlCopyRaw", name)).Verified);
        await Lab.ScalarAsync(shared.Target, await Fixture(Drift[name]));
        var table = await DescribeAsync(shared.Source, name);
        var source = await Lab.ReadChecksumAsync(shared.Source, table);
        Assert.NotEqual(source, await Lab.ReadChecksumAsync(shared.Target, table));
        var run = await RunAsync(pair, insert, name);
        Assert.True(run.Verified, run.Error);
        Assert.Equal(source, await Lab.ReadChecksumAsync(shared.Target, table));
    }

    /// <summary>
    /// EFMerge on the every-type table: EF Core's change tracker compares decimals by value, so the drift's numeric
    /// 1.50 → 1.5 (equal by "=", not by the checksum) is not written, and the runner's verification names the mismatch.
    /// </summary>
    [Fact]
    public async Task EFMerge_leaves_a_change_of_numeric_scale_alone_and_the_run_fails_verification()
    {
        var pair = shared.Pair;
        Assert.True((await RunAsync(pair, "NpgsqlCopyRaw", Typed)).Verified);
        await Lab.ScalarAsync(shared.Target, await Fixture(Drift[Typed]));
        var table = await DescribeAsync(shared.Source, Typed);
        var before = await Lab.ReadChecksumAsync(shared.Target, table);
        var run = await RunAsync(pair, "EFMerge", Typed);
        Assert.True(run.Status == RunStatus.Failed, run.Error);
        Assert.Contains("Verification failed, rolled back", run.Error, StringComparison.Ordinal);
        Assert.Equal(before, await Lab.ReadChecksumAsync(shared.Target, table));
    }

    [Theory]
    [InlineData("Linq2DBTempMerge", QuotedEnum, "Linq2DBTempMerge (linq2db) hands Npgsql's binary importer EF Core's store type")]
    [InlineData("EFBulk", QuotedEnum, "EFBulk (EFCore.BulkExtensions) hands Npgsql's binary importer EF Core's store type of \"Team Sales\".\"Quoted Enum\"'s column \"mode\", the enum's SQL-quoted name")]
    [InlineData("Linq2DBCopy", QuotedEnum, "Linq2DBCopy (linq2db) hands Npgsql's binary importer EF Core's store type")]
    [InlineData("Linq2DB", OddTypes, "Linq2DB (linq2db) hands Npgsql a macaddr's PhysicalAddress as a string")]
    [InlineData("EFBulk", BulkArrays, "EFBulk (EFCore.BulkExtensions) hands Npgsql's binary importer EF Core's store type of \"Team Sales\".\"Bulk Arrays\"'s column \"codes\", character(2)[], as its element's")]
    [InlineData("EFBulkMerge", BulkArrays, "EFBulkMerge (EFCore.BulkExtensions) hands Npgsql's binary importer EF Core's store type")]
    public async Task A_writer_the_generator_does_not_serve_is_refused_naming_why(string insert, string name, string why)
    {
        var pair = shared.Pair;
        Assert.Contains(why, await RefusalAsync(pair, "NpgsqlCopy", insert, name), StringComparison.Ordinal);
    }

    /// <summary>The typed fetches' wire formats are generated per type, and carry no interval, macaddr, point or circle yet: refused by name; NpgsqlCopy carries them (above).</summary>
    [Theory]
    [InlineData("EFStream", "NpgsqlCopy", Spans, "interval", "span")]
    [InlineData("ArrowStream", "EFTypical", Spans, "interval", "span")]
    [InlineData("GrpcStream", "Linq2DB", Spans, "interval", "span")]
    [InlineData("EFKeysetPaging", "EFBulk", Spans, "interval", "span")]
    [InlineData("EFStream", "EFTypical", OddTypes, "macaddr", "mac")]
    [InlineData("ArrowStream", "NpgsqlCopy", MoneyBits, "money", "cash")]
    [InlineData("GrpcStream", "EFBulk", Arrays, "integer[]", "ints")]
    [InlineData("EFKeysetPaging", "Linq2DB", Ranges, "int4range", "r4")]
    [InlineData("ArrowStream", "EFTypical", Search, "tsvector", "doc")]
    public async Task A_typed_fetch_is_refused_a_type_its_wire_format_does_not_carry_naming_the_column(string fetch, string insert, string name, string type, string column)
    {
        var pair = shared.Pair;
        Assert.Contains($"{fetch} sends rows in a wire format generated per type (JSON, Arrow's schema, the table's .proto), which carries no {type} yet, " +
                        $"and {name}'s column \"{column}\" is {type}", await RefusalAsync(pair, fetch, insert, name), StringComparison.Ordinal);
    }
}
