namespace SyncData.Shared;

/// <summary>One row of the users table: the contract both services and the wire formats share.</summary>
public sealed class User
{
    public Guid Id { get; set; }
    public string Name { get; set; } = "";
    public string Patronymic { get; set; } = "";
    public string Surname { get; set; } = "";
    /// <summary>timestamp without time zone: DateTimeKind.Unspecified, microsecond precision.</summary>
    public DateTime CreatedAt { get; set; }
    public bool IsActive { get; set; }
}
