namespace SyncData.Harness;

/// <summary>What change_&lt;table&gt;(share, seed) did to the source (sql/changes.sql): rows updated, inserted and deleted.</summary>
public sealed record ChangeCounts(long Updated, long Inserted, long Deleted)
{
    public long Total => Updated + Inserted + Deleted;
}
