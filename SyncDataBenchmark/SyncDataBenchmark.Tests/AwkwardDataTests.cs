using Npgsql;
using NpgsqlTypes;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>A source holding the rows most likely to break an encoder, a parser or a COPY escape.</summary>
public sealed class AwkwardLab : LabFixture
{
    protected override long SeedRows => 0;

    public static IReadOnlyList<User> Rows { get; } = BuildRows();

    protected override async Task PrepareDatabasesAsync()
    {
        await using var connection = new NpgsqlConnection(SourceDb);
        await connection.OpenAsync();
        await using var importer = await connection.BeginBinaryImportAsync(SyncTable.Users.CopyInBinary);
        foreach (var user in Rows)
        {
            await importer.StartRowAsync();
            await importer.WriteAsync(user.Id, NpgsqlDbType.Uuid);
            await importer.WriteAsync(user.Name, NpgsqlDbType.Text);
            await importer.WriteAsync(user.Patronymic, NpgsqlDbType.Text);
            await importer.WriteAsync(user.Surname, NpgsqlDbType.Text);
            await importer.WriteAsync(user.CreatedAt, NpgsqlDbType.Timestamp);
            await importer.WriteAsync(user.IsActive, NpgsqlDbType.Boolean);
        }

        await importer.CompleteAsync();
    }

    private static List<User> BuildRows()
    {
        string[] awkward =
        [
            "tab\there", "new\nline", "carriage\r\nreturn", @"back\slash\\", "\\N", "'single' \"double\" `back`",
            "Ёлка-Палка Щукин", "日本語テキスト", "emoji 👩‍🚀🚀🏳️‍🌈", "\u2028line separator\u2029", "zero-width\u200bjoiner",
            "", " ", "{\"json\": [1,2]}", "],[", "\u007f\u0001\u001f controls", new string('x', 1024),
            string.Concat(Enumerable.Repeat("я", 1024)), string.Concat(Enumerable.Repeat("🙂", 300)), new string('w', 100_000),
        ];
        // Written with Npgsql's default mapping: DateTime.MinValue/MaxValue become -infinity/infinity in the source.
        DateTime[] times =
        [
            new DateTime(2025, 1, 1, 5, 0, 0).AddTicks(1_234_560), DateTime.MinValue, DateTime.MaxValue, new DateTime(1, 1, 1).AddTicks(10),
            new DateTime(9999, 12, 31, 23, 59, 59).AddTicks(9_999_990),
            new DateTime(2000, 1, 1), new DateTime(1999, 12, 31, 23, 59, 59).AddTicks(9_999_990), new DateTime(1970, 1, 1, 0, 0, 0).AddTicks(10),
        ];
        var rows = new List<User>();
        var random = new Random(20251121);
        var id = new byte[16];
        for (var i = 0; i < 2_345; i++)
        {
            random.NextBytes(id);
            rows.Add(new User
            {
                // uuid extremes too, for keyset ordering.
                Id = i switch { 0 => Guid.Empty, 1 => Guid.AllBitsSet, _ => new Guid(id) },
                Name = awkward[i % awkward.Length],
                Patronymic = awkward[(i * 7 + 3) % awkward.Length],
                Surname = awkward[(i * 13 + 5) % awkward.Length],
                CreatedAt = times[i % times.Length] is { Year: 1 or 9999 } edge ? edge : times[i % times.Length].AddTicks(10 * (i % 1000)),
                IsActive = i % 3 != 0,
            });
        }

        return rows;
    }
}

[CollectionDefinition(Name)]
public sealed class AwkwardCollection : ICollectionFixture<AwkwardLab>
{
    public const string Name = "awkward";
}

/// <summary>Awkward data survives every combination exactly, row by row and column by column.</summary>
[Collection(AwkwardCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class AwkwardDataTests(AwkwardLab lab)
{
    [Theory]
    [MemberData(nameof(MatrixTests.Combinations), MemberType = typeof(MatrixTests))]
    public async Task Awkward_rows_arrive_exactly(string fetch, string insert)
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        var before = await Lab.ReadChecksumAsync(lab.TargetDb);
        // A small page makes the paging approaches cross many page boundaries.
        var run = await lab.SyncAsync($"{fetch}", $"{insert}", pageSize: 97, batchSize: 101);
        if (insert == RefusesDefaultKeys)
        {
            await AssertRefusedGuidEmptyAsync(run, before);
            return;
        }

        Assert.True(run.Verified, run.Error);
        Assert.Equal(AwkwardLab.Rows.Count, run.Rows);
        var expected = await ReadAllAsync(lab.SourceDb);
        var actual = await ReadAllAsync(lab.TargetDb);
        Assert.Equal(AwkwardLab.Rows.Count, expected.Count);
        Assert.Contains(expected, row => row.Item5 == "infinity");
        Assert.Contains(expected, row => row.Item5 == "-infinity");
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.Equal(expected[i], actual[i]);
        }
    }

    /// <summary>
    /// EFCore.BulkExtensions' upsert leaves the key column out when a chunk's first key is its type's default, so
    /// EFBulkMerge refuses the Guid.Empty row by name: the run fails and its transaction leaves the target as it was.
    /// </summary>
    private const string RefusesDefaultKeys = "EFBulkMerge";

    private async Task AssertRefusedGuidEmptyAsync(RunResult run, TableChecksum before)
    {
        Assert.True(run.Status == RunStatus.Failed, $"{RefusesDefaultKeys}: {run.Status} {run.Error}");
        Assert.Contains($"row {Guid.Empty}: users.id = {Guid.Empty} cannot be written by EFCore.BulkExtensions' BulkInsertOrUpdate", run.Error);
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
    }

    /// <summary>Every row, created_at as PostgreSQL prints it: ±infinity and year 1 stay apart, as no DateTime keeps them.</summary>
    private static async Task<List<(Guid, string, string, string, string, bool)>> ReadAllAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("select id, name, patronymic, surname, created_at::text, is_active from users order by id", connection);
        await using var reader = await command.ExecuteReaderAsync();
        var rows = new List<(Guid, string, string, string, string, bool)>();
        while (await reader.ReadAsync())
        {
            rows.Add((reader.GetGuid(0), reader.GetString(1), reader.GetString(2), reader.GetString(3), reader.GetString(4), reader.GetBoolean(5)));
        }

        return rows;
    }
}
