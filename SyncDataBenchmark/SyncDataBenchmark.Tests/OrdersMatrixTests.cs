using SomeService;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Every runnable fetch × insert combination moves the orders table (seeded and awkward rows) exactly.</summary>
[Collection(OrdersCollection.Name)]
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
}
