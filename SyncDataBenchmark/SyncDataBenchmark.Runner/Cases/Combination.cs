using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>A runnable fetch × insert combination; its number names its picture and never depends on --cases.</summary>
public sealed record Combination(int Number, FetchApproach Fetch, InsertApproach Insert)
{
    public string Key => $"{Fetch}:{Insert}";
    public string Picture => $"{Number}.png";
}
