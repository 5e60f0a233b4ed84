using Microsoft.Extensions.Options;
using SyncDataSource.Fetches;
using SyncDataSource.Runs;

namespace SyncDataSource.Tables;

/// <summary>What a described table's paging requests share (bound with [AsParameters]): the limit, the page size allowed, and the run's snapshot.</summary>
public sealed record DescribedPage(string? Limit, IOptions<FetchApiOptions> Options, RunSnapshots Snapshots, HttpRequest Request);
