using SomeService;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Every runnable fetch × insert combination moves the orders table (seeded and awkward rows) exactly.</summary>
[Collection(OrdersCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class OrdersMatrixTests(OrdersLab lab)
{
    public static TheoryData<string, string> Combinations() => MatrixTests.Combinations();

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task Combination_moves_every_order_exactly_and_verifies(string fetch, string insert)
    {
        await lab.MakeTargetDifferAsync();
        var run = await lab.SyncOrdersAsync(fetch, insert);
        Assert.True(run.Status == SyncData.Shared.RunStatus.Succeeded, $"{run.Status}: {run.Error}");
        Assert.True(run.Verified, run.Error);
        Assert.Equal("orders", run.Table);
        Assert.Equal(OrdersLab.Rows, run.Rows);

        // Independent of both services: both tables read directly, compared by the checksum over every column.
        var source = await OrdersLab.ReadChecksumAsync(lab.SourceDb);
        Assert.Equal(OrdersLab.Rows, source.Rows);
        Assert.Equal(source, await OrdersLab.ReadChecksumAsync(lab.TargetDb));
        Assert.Equal(source, run.Target);
        Assert.Equal(source, run.Source);
    }

    /// <summary>
    /// The JSON fetches carry jsonb as the JSON value it is (not a string of escaped JSON) and bytea as base64; read from
    /// SyncDataSource's stream of orders directly.
    /// </summary>
    [Fact]
    public async Task The_JSON_wire_carries_jsonb_as_JSON_and_bytea_as_base64()
    {
        using var response = await lab.SourceClient.GetAsync("orders/stream");
        response.EnsureSuccessStatusCode();
        using var body = System.Text.Json.JsonDocument.Parse(await response.Content.ReadAsStreamAsync());
        var order = body.RootElement.EnumerateArray().Single(o => o.GetProperty("id").GetInt64() == 1000004);

        var attributes = order.GetProperty("attributes");
        Assert.Equal(System.Text.Json.JsonValueKind.Object, attributes.ValueKind);
        Assert.Equal(2, attributes.GetProperty("dup").GetInt32());
        Assert.Equal("quote \" backslash \\ slash / tab \t nl \n ctl \u0001 \u001f é é astral 🚀", attributes.GetProperty("esc").GetString());
        Assert.Equal(Convert.ToBase64String([0x00, 0xff, 0x00, 0xfe, 0x7f, 0x80, 0x00, 0x00, 0x00]), order.GetProperty("attachment").GetString());
        Assert.Equal(["", "NULL", "a,b", "{}", "\"q\"", "back\\slash", null], order.GetProperty("tags").EnumerateArray().Select(t => t.GetString()));
    }

    /// <summary>
    /// Every JSON fetch writes non-ASCII text as UTF-8, none as \u escapes: the stream and the pages are written with the
    /// same escaping, so their bytes per row on the wire compare like with like.
    /// </summary>
    [Theory]
    [InlineData("orders/stream")]
    [InlineData("orders/keyset?limit=1000")]
    [InlineData("orders/offset?offset=0&limit=1000")]
    public async Task Every_JSON_fetch_writes_non_ASCII_text_unescaped(string route)
    {
        using var response = await lab.SourceClient.GetAsync(route);
        response.EnsureSuccessStatusCode();
        var body = await response.Content.ReadAsStringAsync();

        Assert.Contains("\"подарок\"", body);
        Assert.DoesNotContain("\\u043F", body, StringComparison.OrdinalIgnoreCase);
    }
}
