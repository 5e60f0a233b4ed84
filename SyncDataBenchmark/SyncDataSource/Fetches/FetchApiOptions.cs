using System.ComponentModel.DataAnnotations;

namespace SyncDataSource.Fetches;

/// <summary>SyncDataSource's limits on what its fetches serve (configuration section <see cref="Section"/>).</summary>
public sealed class FetchApiOptions
{
    public const string Section = "Fetch";

    /// <summary>Largest page the paging endpoints serve; larger limits are refused, not silently clamped.</summary>
    [Range(1, 1_000_000)]
    public int MaxPageSize { get; set; } = 10_000;
}
