using SomeService;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// No value is altered silently on the wide table: a legal PostgreSQL value the row's .NET type cannot hold exactly
/// (numeric NaN, ±Infinity, beyond decimal; a timestamp or date .NET cannot tell from ±infinity; an array string?[]
/// cannot describe) fails every fetch that parses naming the row, the column and the value, wherever it was met
/// (SyncDataSource's guarded query for the JSON fetches, SomeService's COPY decoder for NpgsqlCopy), and crosses the
/// raw relays exactly (NpgsqlCopy's bytes; ArrowStream's columns encoded as COPY, but for the arrays list&lt;utf8&gt;
/// cannot carry, which its source refuses by name). Each fetch fails into one parsing writer per value, turning
/// (Consumers.ForAValueNoRowHolds): across the values every fetch fails into every parsing writer. The values .NET can
/// hold at its edges are among OrdersMatrixTests' awkward rows.
/// </summary>
[Collection(OrdersCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class OrdersUnrepresentableTests(OrdersLab lab)
{
    private const long PlantedId = 150;

    /// <summary>(column, PostgreSQL type, value as PostgreSQL prints it, text the error names it by).</summary>
    public static TheoryData<string, string, string, string> Values => new()
    {
        { "exchange_rate", "numeric", "NaN", "NaN" },
        // numeric(19,4): within decimal but for NaN, which PostgreSQL stores under any precision.
        { "total", "numeric", "NaN", "NaN" },
        { "exchange_rate", "numeric", "Infinity", "Infinity" },
        { "exchange_rate", "numeric", "-Infinity", "-Infinity" },
        // 2^96: one more than decimal's largest integer.
        { "exchange_rate", "numeric", "79228162514264337593543950336", "79228162514264337593543950336" },
        // 29 decimal places: one more than decimal's scale.
        { "exchange_rate", "numeric", "0.00000000000000000000000000001", "0.00000000000000000000000000001" },
        // 30 significant digits at scale 20: an unscaled integer beyond 96 bits.
        { "exchange_rate", "numeric", "1234567890.12345678901234567890", "1234567890.12345678901234567890" },
        { "placed_at", "timestamptz", "0001-01-01 00:00:00+00", "0001-01-01 00:00:00+00" },
        { "delivery_date", "date", "9999-12-31", "9999-12-31" },
        { "tags", "text[]", "[0:1]={a,b}", "" },
        { "tags", "text[]", "{{a,NULL},{c,d}}", "" },
    };

    [Theory]
    [MemberData(nameof(Values))]
    public async Task A_value_the_row_type_cannot_hold_fails_every_parsing_combination_by_name_and_crosses_the_raw_relays_exactly(
        string column, string type, string value, string named)
    {
        var original = (string?)await Lab.ScalarAsync(lab.SourceDb, $"select {column}::text from orders where id = $1", [PlantedId]);
        await Lab.ScalarAsync(lab.SourceDb, $"update orders set {column} = $1::{type} where id = $2", [value, PlantedId]);
        try
        {
            var source = await OrdersLab.ReadChecksumAsync(lab.SourceDb);
            foreach (var (fetch, insert) in Consumers.ForAValueNoRowHolds(Consumers.TurnOf(Values, column, type, value, named)))
            {
                await lab.MakeTargetDifferAsync();
                var run = await lab.SyncOrdersAsync(fetch, insert);
                // ArrowStream's source refuses by name what list<utf8> cannot carry (another lower bound, more dimensions), whatever the writer.
                var refusedByArrow = fetch == "ArrowStream" && column == "tags";
                if (ApproachRegistry.Catalog[new InsertApproach(insert)].CopyBytes && !refusedByArrow)
                {
                    // The raw relays parse nothing: PostgreSQL's bytes arrive as they left (NpgsqlCopy), or as they were
                    // encoded from Arrow's columns, numeric from its text (ArrowStream).
                    Assert.True(run.Verified, $"{fetch} × {insert}: {run.Error}");
                    Assert.Equal(source, await OrdersLab.ReadChecksumAsync(lab.TargetDb));
                    Assert.Equal(value, (string?)await Lab.ScalarAsync(lab.TargetDb, $"select {column}::text from orders where id = $1", [PlantedId]));
                }
                else
                {
                    Assert.True(run.Status == RunStatus.Failed, $"{fetch} × {insert}: {run.Status}");
                    Assert.True(run.Error?.Contains($"row {PlantedId}: {column} = {named}") == true, $"{fetch} × {insert}: {run.Error}");
                    Assert.True(run.Error?.Contains("cannot be") == true, $"{fetch} × {insert}: {run.Error}");
                    // Rolled back: the target still holds only the sentinel row.
                    Assert.Equal(1, (await OrdersLab.ReadChecksumAsync(lab.TargetDb)).Rows);
                }
            }
        }
        finally
        {
            await Lab.ScalarAsync(lab.SourceDb, $"update orders set {column} = $1::{type} where id = $2", [(object?)original ?? DBNull.Value, PlantedId]);
        }
    }
}
