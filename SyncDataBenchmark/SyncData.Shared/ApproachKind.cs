namespace SyncData.Shared;

/// <summary>Which half of a transfer an approach is.</summary>
public enum ApproachKind
{
    Fetch,
    Insert,
}
