using System.Net.Http.Json;
using SomeService;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>GET /approaches serves SomeService's catalogue as it built it, routes included.</summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ApproachesEndpointTests(InProcessLab lab)
{
    [Fact]
    public async Task The_catalogue_is_served_as_SomeService_built_it()
    {
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source);
        using var client = someService.CreateClient();

        var served = await client.GetFromJsonAsync("approaches", SyncJsonContext.Default.ListApproachDescription);

        var expected = ApproachRegistry.Catalog.All.Select(a => new ApproachDescription(a.Kind.ToString(), a.Name, a.CopyBytes, a.Pages, a.Batches,
            a.Kind == ApproachKind.Fetch ? a.Route : null));
        Assert.Equal(expected, served);
        Assert.Contains(served!, a => a is { Name: "Linq2DB", Kind: "Insert" });
        Assert.Contains(served!, a => a is { Name: "EFStream", Route: "users/stream" });
    }
}
