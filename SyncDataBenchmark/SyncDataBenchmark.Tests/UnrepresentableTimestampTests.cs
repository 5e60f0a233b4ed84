using SomeService;
using Npgsql;
using SomeService.Fetch;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>A small source whose rows get, one at a time, a timestamp .NET's DateTime cannot hold.</summary>
public sealed class UnrepresentableLab : LabFixture
{
    public const long Rows = 300;
    protected override long SeedRows => Rows;

    /// <summary>
    /// Sets created_at of one row (the 150th by id, the <paramref name="later"/>-th after it, or <paramref name="id"/>)
    /// to a timestamp literal; returns its id.
    /// </summary>
    public async Task<Guid> PlantCreatedAtAsync(string value, Guid? id = null, int later = 0)
    {
        await using var connection = new NpgsqlConnection(SourceDb);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(
            "update users set created_at = $1::timestamp where id = coalesce($2, (select id from users order by id offset 149 + $3 limit 1)) returning id", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = value });
        command.Parameters.Add(new NpgsqlParameter { Value = (object?)id ?? DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Uuid });
        command.Parameters.Add(new NpgsqlParameter { Value = later });
        return (Guid)(await command.ExecuteScalarAsync())!;
    }
}

[CollectionDefinition(Name)]
public sealed class UnrepresentableCollection : ICollectionFixture<UnrepresentableLab>
{
    public const string Name = "unrepresentable";
}

/// <summary>
/// No value is altered silently: a legal PostgreSQL timestamp either arrives exactly, or the run fails naming the
/// row, the column and the value, even when the failure happened inside SyncDataSource.
/// </summary>
[Collection(UnrepresentableCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class UnrepresentableTimestampTests(UnrepresentableLab lab)
{
    /// <summary>Outside DateTime, or 0001-01-01 00:00:00: DateTime.MinValue, which Npgsql's default mapping reads -infinity as.</summary>
    public static TheoryData<string> Values => new() { "0001-01-01 00:00:00", "4713-11-24 00:00:00 BC", "294276-12-31 23:59:59.999999", "0001-12-31 23:59:59.999999 BC" };

    /// <summary>±infinity (DateTime.MaxValue/MinValue under Npgsql's default mapping) and the edges just inside DateTime.</summary>
    public static readonly string[] Carried = ["infinity", "-infinity", "0001-01-01 00:00:00.000001", "9999-12-31 23:59:59.999999"];

    /// <summary>Each of <see cref="Carried"/> in a row of its own, so one run a combination carries them all.</summary>
    [Fact]
    public async Task Infinity_and_the_edges_of_DateTime_arrive_exactly_through_every_combination()
    {
        await using var planted = await PlantedTimestamps.PlantAsync(lab.PlantCreatedAtAsync, Carried);
        var source = await Lab.ReadChecksumAsync(lab.SourceDb);
        foreach (var (fetch, insert) in Consumers.FullFetchCombinations.Select(c => (c.Fetch.Name, c.Insert.Name)))
        {
            await Lab.MakeTargetDifferAsync(lab.TargetDb, source);
            var run = await lab.SyncAsync($"{fetch}", $"{insert}", pageSize: 50, batchSize: 40);
            Assert.True(run.Verified, $"{fetch} × {insert}: {run.Error}");
            foreach (var (id, value) in planted.Rows)
            {
                var held = await CreatedAtTextAsync(lab.TargetDb, id);
                Assert.True(value == held, $"{fetch} × {insert}: row {id} holds {held}, not {value}");
            }

            Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb));
        }
    }

    [Theory]
    [MemberData(nameof(Values))]
    public async Task A_timestamp_DateTime_cannot_carry_fails_every_parsing_combination_by_name_and_crosses_the_raw_relay_exactly(string value)
    {
        var id = await lab.PlantCreatedAtAsync(value);
        try
        {
            var source = await Lab.ReadChecksumAsync(lab.SourceDb);
            // Every fetch fails where it meets the value, whatever the writer: one parsing writer each, turning with the value.
            foreach (var (fetch, insert) in Consumers.ForAValueNoRowHolds(Consumers.TurnOf(Values, value)))
            {
                await Lab.MakeTargetDifferAsync(lab.TargetDb, source);
                var run = await lab.SyncAsync($"{fetch}", $"{insert}", pageSize: 50, batchSize: 40);
                // The raw relays (NpgsqlCopyRaw, NpgsqlCopyRawTuned) parse nothing: PostgreSQL's bytes (or ArrowStream's
                // columns encoded as COPY) arrive as they left, but for what ArrowStream's wire cannot hold, which its source
                // refuses by name (ArrowStreamTests).
                if (ApproachRegistry.Catalog[new InsertApproach(insert)].CopyBytes && !(fetch == "ArrowStream" && value == "294276-12-31 23:59:59.999999"))
                {
                    Assert.True(run.Verified, $"{fetch} × {insert}: {run.Error}");
                    Assert.Equal(value, await CreatedAtTextAsync(lab.TargetDb, id));
                }
                else
                {
                    Assert.True(run.Status == RunStatus.Failed, $"{fetch} × {insert}: {run.Status}");
                    Assert.True(run.Error?.Contains($"row {id}: created_at = {value} ") == true, $"{fetch} × {insert}: {run.Error}");
                    // Rolled back: the target still holds only the sentinel row.
                    Assert.Equal(1, (await Lab.ReadChecksumAsync(lab.TargetDb)).Rows);
                }
            }
        }
        finally
        {
            await lab.PlantCreatedAtAsync("2025-01-01 00:00:00", id);
        }
    }

    [Theory]
    [InlineData(long.MaxValue, "infinity")]
    [InlineData(long.MinValue, "-infinity")]
    [InlineData(0L, "2000-01-01 00:00:00")]
    [InlineData(-1L, "1999-12-31 23:59:59.999999")]
    [InlineData(-63_082_281_600_000_000L, "0001-01-01 00:00:00")]
    [InlineData(-63_082_281_600_000_001L, "0001-12-31 23:59:59.999999 BC")]
    [InlineData(-211_781_865_600_000_000L, "4713-11-24 00:00:00 BC")]
    [InlineData(9_223_371_331_199_999_999L, "294276-12-31 23:59:59.999999")]
    [InlineData(1_000_500_000L, "2000-01-01 00:16:40.5")]
    public void Binary_timestamps_are_named_as_PostgreSQL_prints_them(long micros, string expected) =>
        Assert.Equal(expected, PostgresTimestamp.Format(micros));


    private static async Task<string> CreatedAtTextAsync(string connectionString, Guid id)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("select created_at::text from users where id = $1", connection);
        command.Parameters.Add(new NpgsqlParameter { Value = id });
        return (string)(await command.ExecuteScalarAsync())!;
    }
}
