using System.Text.Json;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the table dimension's contract between SomeService and its callers (the trigger, the run record).</summary>
[Trait("Tier", "Fast")]
public sealed class TableContractTests
{
    [Fact]
    public void A_trigger_without_a_table_is_todays_query_and_one_with_a_table_names_it()
    {
        Assert.Equal("sync?f=NpgsqlCopy&i=EFBulk", SyncRoutes.Trigger("NpgsqlCopy", "EFBulk"));
        Assert.Equal("sync?f=NpgsqlCopy&i=EFBulk&c=gzip&table=orders", SyncRoutes.Trigger("NpgsqlCopy", "EFBulk", compression: "gzip", table: "orders"));
        Assert.Equal("sync?f=a&i=b&table=x%26y", SyncRoutes.Trigger("a", "b", table: "x&y"));
    }

    [Fact]
    public void The_default_table_is_a_table_of_the_lab()
    {
        Assert.Equal(SyncTable.Users, SyncTable.Named(SyncRoutes.DefaultTable));
        Assert.Contains(SyncTable.Orders, SyncTable.All);
    }

    [Fact]
    public void A_run_recorded_before_the_table_dimension_reads_back_as_users_and_a_new_one_keeps_its_table()
    {
        const string old = """{"id":"0194b6a4-0000-7000-8000-000000000001","fetch":"NpgsqlCopy","insert":"NpgsqlCopy","status":"succeeded","startedAt":"2026-11-20T10:00:00+00:00"}""";
        Assert.Equal("users", JsonSerializer.Deserialize(old, SyncJsonContext.Default.RunResult)!.Table);

        var orders = JsonSerializer.Deserialize(old, SyncJsonContext.Default.RunResult)! with { Table = "orders" };
        var json = JsonSerializer.Serialize(orders, SyncJsonContext.Default.RunResult);
        Assert.Contains("\"table\":\"orders\"", json);
        Assert.Equal("orders", JsonSerializer.Deserialize(json, SyncJsonContext.Default.RunResult)!.Table);
    }
}
