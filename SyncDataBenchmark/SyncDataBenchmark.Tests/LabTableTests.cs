using System.Net;
using System.Text.Json;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Every lab table defined by its folder alone (LabTables: Tables/&lt;name&gt;/), in both services in process: created with
/// the lab's schema, seeded by its generator with NULL in every nullable column somewhere, and moved by every case that
/// DescribedTableReach says carries it into a target made to differ, verified by SomeService and by a checksum over
/// every column read here. A new folder is covered without a line of test.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class LabTableTests(InProcessLab lab)
{
    private const long Rows = 1_000;

    public static TheoryData<string> Tables => [.. LabTables.Names];

    [Theory]
    [MemberData(nameof(Tables))]
    public async Task A_folder_table_is_seeded_with_nulls_and_moved_verified_by_every_case_that_carries_it(string name)
    {
        var table = LabTables.Find(name)!;
        await SqlScripts.SeedAsync(lab.SourceDb, table, Rows);
        await using (var connection = new NpgsqlConnection(lab.SourceDb))
        {
            await connection.OpenAsync();
            table = table.DescribedAs(await TableCatalog.ReadAsync(connection, name));
        }

        await AssertEveryNullableColumnHoldsNullAndValueAsync(table);
        var source = await Lab.ReadChecksumAsync(lab.SourceDb, table);
        Assert.Equal(Rows, source.Rows);
        var carried = CaseNumbers.Runnable.Where(c => !c.Merges && BenchPlan.Carries(table, c)).ToList();
        Assert.NotEmpty(carried);
        await using var pair = lab.Pair();
        foreach (var c in carried)
        {
            await Lab.MakeTargetDifferAsync(lab.TargetDb, table, source);
            using var response = await pair.SomeService.TriggerAsync(c.Fetch.ToString(), c.Insert.ToString(), wait: true, table: name);
            var body = await response.Content.ReadAsStringAsync();
            Assert.True(response.StatusCode == HttpStatusCode.OK, $"{c.Fetch} × {c.Insert} on {name}: {body}");
            Assert.True(JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!.Verified, body);
            Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb, table));
        }
    }

    /// <summary>A folder table's seed must exercise NULL: each nullable column holds at least one NULL and one value.</summary>
    private async Task AssertEveryNullableColumnHoldsNullAndValueAsync(SyncTable table)
    {
        foreach (var column in table.Description!.Columns.Where(c => !c.NotNull))
        {
            var quoted = TableDescription.Quote(column.Name);
            var (nulls, values) = ((long)(await Lab.ScalarAsync(lab.SourceDb, $"select count(*) from {table.SqlName} where {quoted} is null"))!,
                (long)(await Lab.ScalarAsync(lab.SourceDb, $"select count(*) from {table.SqlName} where {quoted} is not null"))!);
            Assert.True(nulls > 0 && values > 0, $"{table.Name}.{column.Name}: {nulls} NULL, {values} not NULL");
        }
    }
}
