using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The verification of every run rests on <see cref="SyncTable.ChecksumSql"/>: two tables that differ in any value
/// must get different checksums. Each pair here differs in exactly one way the previous checksum could not see.
/// Evaluated by the matrix lab's PostgreSQL on literal rows (no services involved).
/// </summary>
[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChecksumTests(MatrixLab lab)
{
    private const string Id = "'018f0000-0000-7000-8000-000000000001'::uuid";

    public static TheoryData<string, string, string> DifferingRows => new()
    {
        { "infinity vs -infinity", $"({Id}, 'a', 'b', 'c', timestamp 'infinity', true)", $"({Id}, 'a', 'b', 'c', timestamp '-infinity', true)" },
        { "AD vs BC", $"({Id}, 'a', 'b', 'c', timestamp '0044-03-15 00:00:00', true)", $"({Id}, 'a', 'b', 'c', timestamp '0044-03-15 00:00:00 BC', true)" },
        { "separator inside a value", $"({Id}, 'a' || chr(31) || 'b', 'c', 'd', timestamp '2025-01-01', true)", $"({Id}, 'a', 'b' || chr(31) || 'c', 'd', timestamp '2025-01-01', true)" },
        { "comma inside a value", $"({Id}, 'a,b', 'c', 'd', timestamp '2025-01-01', true)", $"({Id}, 'a', 'b,c', 'd', timestamp '2025-01-01', true)" },
        { "one microsecond", $"({Id}, 'a', 'b', 'c', timestamp '2025-01-01 00:00:00.000001', true)", $"({Id}, 'a', 'b', 'c', timestamp '2025-01-01 00:00:00.000002', true)" },
        { "year 0001 vs -infinity", $"({Id}, 'a', 'b', 'c', timestamp '0001-01-01 00:00:00', true)", $"({Id}, 'a', 'b', 'c', timestamp '-infinity', true)" },
        { "empty vs space", $"({Id}, '', 'b', 'c', timestamp '2025-01-01', true)", $"({Id}, ' ', 'b', 'c', timestamp '2025-01-01', true)" },
        { "boolean", $"({Id}, 'a', 'b', 'c', timestamp '2025-01-01', true)", $"({Id}, 'a', 'b', 'c', timestamp '2025-01-01', false)" },
        { "id", $"({Id}, 'a', 'b', 'c', timestamp '2025-01-01', true)", "('018f0000-0000-7000-8000-000000000002'::uuid, 'a', 'b', 'c', timestamp '2025-01-01', true)" },
    };

    [Theory]
    [MemberData(nameof(DifferingRows))]
    public async Task Rows_that_differ_in_one_value_get_different_checksums(string difference, string left, string right)
    {
        var a = await ChecksumOfAsync(left);
        var b = await ChecksumOfAsync(right);
        Assert.True(a != b, $"{difference}: both rows summarise to {a}.");
    }

    [Fact]
    public async Task The_checksum_does_not_depend_on_row_order_or_the_session_date_style()
    {
        const string rows = $"({Id}, 'a', 'b', 'c', timestamp '0044-03-15 BC', true), ('018f0000-0000-7000-8000-000000000002'::uuid, 'd', 'e', 'f', timestamp 'infinity', false)";
        const string reversed = $"('018f0000-0000-7000-8000-000000000002'::uuid, 'd', 'e', 'f', timestamp 'infinity', false), ({Id}, 'a', 'b', 'c', timestamp '0044-03-15 BC', true)";
        Assert.Equal(await ChecksumOfAsync(rows), await ChecksumOfAsync(reversed, "set datestyle = 'SQL, DMY'"));
    }

    /// <summary>The summary of a table holding exactly these rows, in a temporary table shadowing users.</summary>
    private async Task<TableChecksum> ChecksumOfAsync(string values, string? setup = null)
    {
        await using var connection = new NpgsqlConnection(lab.Postgres.ConnectionString("postgres"));
        await connection.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        await using (var create = new NpgsqlCommand(
            $"{setup}{(setup is null ? "" : ";")} create temporary table {SyncTable.Users.Name} (id uuid, name text, patronymic text, surname text, created_at timestamp, is_active boolean) on commit drop; " +
            $"insert into {SyncTable.Users.Name} values {values}", connection, transaction))
        {
            await create.ExecuteNonQueryAsync();
        }

        return await connection.ReadChecksumAsync(SyncTable.Users, transaction, CancellationToken.None);
    }
}
