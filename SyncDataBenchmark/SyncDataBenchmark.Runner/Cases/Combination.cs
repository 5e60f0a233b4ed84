using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A runnable fetch × insert combination; its number names its picture and never depends on --cases. Under a
/// --compression other than none it is its own case: the compression joins its key, title and picture.
/// </summary>
public sealed record Combination(int Number, FetchApproach Fetch, InsertApproach Insert)
{
    /// <summary>A <see cref="BodyCompression"/> name.</summary>
    public string Compression { get; init; } = BodyCompression.None;
    /// <summary>Its writer merges into a populated target (ApproachInfo.Merges): it runs only with --changed.</summary>
    public bool Merges { get; init; }
    private string? Suffix => Compression == BodyCompression.None ? null : Compression;
    public string Key => $"{Fetch}:{Insert}" + (Suffix is { } s ? $"[{s}]" : "");
    public string Picture => $"{Number}{(Suffix is { } s ? "-" + s : "")}.png";
    /// <summary>"Fetch × Insert", with " [gzip]" when compressed.</summary>
    public string Label => $"{Fetch} × {Insert}" + (Suffix is { } s ? $" [{s}]" : "");
}
