using System.Net.Http.Json;
using SomeService;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>GET /approaches serves SomeService's catalogue as it built it, routes included, and what each consumes, changes and merges.</summary>
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

        var served = await client.GetFromJsonAsync("approaches", SyncJsonContext.Default.ListApproachInfo);

        Assert.Equal(ApproachRegistry.Catalog.All, served);
        Assert.Contains(served!, a => a is { Name: "Linq2DB", Kind: ApproachKind.Insert, Route: null, Merges: false });
        Assert.Contains(served!, a => a is { Name: "EFStream", Route: "users/stream" });
        Assert.Contains(served!, a => a is { Name: "NpgsqlCopyChanges", Changes: true });
        Assert.Contains(served!, a => a is { Name: "NpgsqlCopyRawMerge", CopyBytes: true, Merges: true });
        // The names as they were served before Changes and Merges joined them, kind as a string.
        var json = await client.GetStringAsync("approaches");
        Assert.Contains("\"kind\":\"Insert\",\"name\":\"EFBulk\",\"copyBytes\":false,\"pages\":false,\"batches\":true,\"route\":null", json, StringComparison.Ordinal);
    }
}
