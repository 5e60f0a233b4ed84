using System.ComponentModel.DataAnnotations;

namespace SyncDataSource.Users;

public sealed class UsersApiOptions
{
    public const string Section = "Users";

    /// <summary>Largest page the paging endpoints serve; larger limits are refused, not silently clamped.</summary>
    [Range(1, 1_000_000)]
    public int MaxPageSize { get; set; } = 10_000;
}
