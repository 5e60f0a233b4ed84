namespace SyncDataBenchmark.Runner.Report;

/// <summary>The rows change_&lt;table&gt; updated, inserted and deleted in the source before a run (--changed).</summary>
public sealed record ChangeMix(long Updated, long Inserted, long Deleted)
{
    public long Total => Updated + Inserted + Deleted;
}
