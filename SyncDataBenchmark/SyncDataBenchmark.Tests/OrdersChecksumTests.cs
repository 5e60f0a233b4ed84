using Npgsql;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The orders runs are verified by <see cref="SyncTable.Orders"/>' checksum: two tables that differ in any value of any
/// column get different checksums, and two that PostgreSQL holds equal (jsonb's canonical form) the same. Evaluated
/// by the matrix lab's PostgreSQL on literal rows in a temporary table shadowing orders (no services involved).
/// </summary>
[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class OrdersChecksumTests(MatrixLab lab)
{
    /// <summary>One order's column values in SyncTable.Orders' column order, as SQL literals.</summary>
    private static readonly Dictionary<string, string> Order = new()
    {
        ["id"] = "1", ["customer_id"] = "'018f0000-0000-7000-8000-000000000001'", ["status"] = "'paid'", ["total"] = "12.3400",
        ["discount"] = "null", ["exchange_rate"] = "1.5", ["currency"] = "'EUR'", ["placed_at"] = "'2024-01-01 00:00:00+00'",
        ["delivery_date"] = "'2024-01-02'", ["tags"] = "'{}'", ["attributes"] = "'{\"a\": 1, \"b\": [true, null]}'", ["note"] = "null",
        ["attachment"] = "null", ["item_count"] = "1", ["is_gift"] = "false", ["shipping_address"] = "'x'",
    };

    /// <summary>(difference, column, one value, the other value).</summary>
    public static TheoryData<string, string, string, string> Differing => new()
    {
        { "numeric scale", "exchange_rate", "1.5", "1.50" },
        { "NaN vs Infinity", "exchange_rate", "'NaN'", "'Infinity'" },
        { "jsonb string vs number", "attributes", "'{\"a\": \"1\", \"b\": [true, null]}'", "'{\"a\": 1, \"b\": [true, null]}'" },
        { "jsonb escape", "attributes", "'{\"a\": \"\\u0001\"}'", "'{\"a\": \"\\u0002\"}'" },
        { "empty array vs one NULL", "tags", "'{}'", "'{NULL}'" },
        { "NULL element vs the string NULL", "tags", "'{NULL}'", "'{\"NULL\"}'" },
        { "comma inside an element", "tags", "'{\"a,b\"}'", "'{a,b}'" },
        { "array lower bound", "tags", "'{a,b}'", "'[0:1]={a,b}'" },
        { "bytea NULL vs empty", "attachment", "null", "'\\x'" },
        { "bytea zero byte vs empty", "attachment", "'\\x00'", "'\\x'" },
        { "text NULL vs empty", "note", "null", "''" },
        { "date infinity vs -infinity", "delivery_date", "'infinity'", "'-infinity'" },
        { "one microsecond", "placed_at", "'2024-01-01 00:00:00.000001+00'", "'2024-01-01 00:00:00.000002+00'" },
        { "enum", "status", "'paid'", "'pending'" },
        { "astral character", "shipping_address", "'𝄞'", "'𝄟'" },
    };

    [Theory]
    [MemberData(nameof(Differing))]
    public async Task Orders_that_differ_in_one_value_get_different_checksums(string difference, string column, string left, string right)
    {
        var a = await ChecksumOfAsync(column, left);
        var b = await ChecksumOfAsync(column, right);
        Assert.True(a != b, $"{difference}: both orders summarise to {a}.");
    }

    [Fact]
    public async Task Equal_jsonb_documents_written_differently_get_the_same_checksum()
    {
        Assert.Equal(await ChecksumOfAsync("attributes", "'{\"a\": 1, \"b\": [true, null]}'"),
            await ChecksumOfAsync("attributes", "'{ \"b\" : [true,null] ,\"a\":1 }'"));
        Assert.Equal(await ChecksumOfAsync("attributes", "'{\"s\": \"é🚀\"}'"), await ChecksumOfAsync("attributes", "'{\"s\": \"\\u00e9\\ud83d\\ude80\"}'"));
    }

    /// <summary>The summary of an orders table holding one order, <paramref name="column"/> set to <paramref name="value"/>.</summary>
    private async Task<TableChecksum> ChecksumOfAsync(string column, string value)
    {
        var values = string.Join(", ", SyncTable.Orders.Columns.Split(", ").Select(c => c == column ? value : Order[c]));
        await using var connection = new NpgsqlConnection(lab.SourceDb);
        await connection.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        await using (var create = new NpgsqlCommand(
            $"create temporary table {SyncTable.Orders.Name} (like public.{SyncTable.Orders.Name}) on commit drop; " +
            $"insert into {SyncTable.Orders.Name} ({SyncTable.Orders.Columns}) values ({values})", connection, transaction))
        {
            await create.ExecuteNonQueryAsync();
        }

        return await connection.ReadChecksumAsync(SyncTable.Orders, transaction, CancellationToken.None);
    }
}
