using System.Net;
using System.Text.Json;
using Npgsql;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Both services in process on a team's own source (read through the runner's read-only connection) and a target; what the own-table tests share.</summary>
public static class OwnTablePair
{
    public static InProcessPair Start(InProcessLab lab, string source, string target) =>
        lab.Pair(new Dictionary<string, string?> { ["ConnectionStrings:Source"] = OwnTableSource.ReadOnly(source) },
            new Dictionary<string, string?> { ["ConnectionStrings:Target"] = target });

    /// <summary>Table <paramref name="name"/> as <paramref name="database"/>'s catalog describes it.</summary>
    public static async Task<SyncTable> DescribeAsync(string database, string name)
    {
        await using var connection = new NpgsqlConnection(database);
        await connection.OpenAsync();
        return SyncTable.Of(name, await TableCatalog.ReadAsync(connection, name));
    }

    /// <summary>A run of NpgsqlCopy × <paramref name="insert"/> on table <paramref name="name"/>, waited for; the trigger must be accepted.</summary>
    public static Task<RunResult> RunAsync(InProcessPair pair, string insert, string name) => RunAsync(pair, "NpgsqlCopy", insert, name);

    /// <summary>A run of <paramref name="fetch"/> × <paramref name="insert"/> on table <paramref name="name"/>, waited for; the trigger must be accepted.</summary>
    public static async Task<RunResult> RunAsync(InProcessPair pair, string fetch, string insert, string name, int? pageSize = null)
    {
        using var response = await pair.SomeService.TriggerAsync(fetch, insert, pageSize, wait: true, table: name);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, body);
        return JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
    }

    /// <summary>The reason SomeService refuses NpgsqlCopy × <paramref name="insert"/> on <paramref name="name"/> (400, errors.table).</summary>
    public static async Task<string?> RefusalAsync(InProcessPair pair, string fetch, string insert, string name)
    {
        using var response = await pair.SomeService.TriggerAsync(fetch, insert, wait: true, table: name);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.BadRequest, body);
        using var problem = JsonDocument.Parse(body);
        return problem.RootElement.GetProperty("errors").GetProperty("table")[0].GetString();
    }
}
