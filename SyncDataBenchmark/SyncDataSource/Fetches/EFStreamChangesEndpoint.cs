using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

public sealed class EFStreamChangesEndpoint : IFetchEndpoint<EFStreamChangesFetch>
{
    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, string? since, SendableDbContext db, RunSnapshots snapshots, CancellationToken ct) => StreamChanges(table, since, http, db, snapshots, ct);

    /// <summary>EFStreamChanges: EFStream over changed_&lt;table&gt;(since) (the same guard, the same JSON); 400 for a missing or bad watermark.</summary>
    private static async Task<IResult> StreamChanges<TRow>(SourceTable<TRow> table, string? since, HttpContext http, SendableDbContext db, RunSnapshots snapshots, CancellationToken ct)
        where TRow : class
    {
        var errors = new Dictionary<string, string[]>();
        if (SinceParameter.Parse(since, errors) is not { } watermark)
        {
            return TypedResults.ValidationProblem(errors);
        }

        await JsonRowStream.WriteAsync(context => table.ChangedRows(context, watermark), http, db, snapshots, ct);
        return TypedResults.Empty;
    }
}
