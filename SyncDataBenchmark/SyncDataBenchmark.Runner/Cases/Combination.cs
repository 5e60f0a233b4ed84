using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A runnable fetch × insert combination; its number names its picture and never depends on --cases. Under a
/// --compression other than none it is its own case: the compression joins its key, title and picture (<see cref="CaseIdentity"/>).
/// </summary>
public sealed record Combination(int Number, FetchApproach Fetch, InsertApproach Insert)
{
    /// <summary>A <see cref="BodyCompression"/> name.</summary>
    public string Compression { get; init; } = BodyCompression.None;
    /// <summary>Its writer merges into a populated target (ApproachInfo.Merges): it runs only with --changed.</summary>
    public bool Merges { get; init; }
    /// <summary>Its key moving the users table into an emptied target (<see cref="CaseIdentity.Key"/>): Fetch:Insert[gzip].</summary>
    public string Key => CaseIdentity.Of(this, SyncData.Postgres.SyncTable.Default, null).Key;
}
