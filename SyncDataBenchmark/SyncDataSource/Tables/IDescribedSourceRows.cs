using SyncDataSource.Runs;

namespace SyncDataSource.Tables;

/// <summary>A described table's rows as the source reads them through the classes generated for it, whatever their type (<see cref="DescribedSourceRows{TRow}"/>).</summary>
public interface IDescribedSourceRows
{
    /// <summary>EFStream: the table as one JSON array, read through the generated EF context in the run's snapshot.</summary>
    Task StreamAsync(HttpContext http, RunSnapshots snapshots, CancellationToken ct);

    /// <summary>EFOffsetPaging: the page at <paramref name="offset"/>, in primary-key order.</summary>
    Task<IResult> PageByOffsetAsync(string? offset, DescribedPage page, CancellationToken ct);

    /// <summary>EFKeysetPaging: the page after key <paramref name="after"/> (the whole key's values, GeneratedKey's text), in key order.</summary>
    Task<IResult> PageAfterAsync(string? after, DescribedPage page, CancellationToken ct);
}
