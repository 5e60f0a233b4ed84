using Npgsql;
using SyncData.Postgres;
using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

public sealed class NpgsqlCopyChangesEndpoint : IFetchEndpoint<NpgsqlCopyChangesFetch>
{
    // Without its comment lines: Npgsql takes a raw COPY only when the command starts with COPY.
    private static readonly string CopyTemplate = string.Join('\n',
        SendableDbContext.Embedded("changed-copy.sql").Split('\n').Where(line => !line.StartsWith("--", StringComparison.Ordinal)));

    public Delegate HandlerFor<TRow>(SourceTable<TRow> table)
        where TRow : class =>
        (HttpContext http, string? since, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct) => CopyChanges(table.Table, since, http, dataSource, snapshots, ct);

    /// <summary>NpgsqlCopyChanges: binary COPY of changed_&lt;table&gt;(since), relayed as NpgsqlCopy relays the table; 400 for a missing or bad watermark.</summary>
    private static async Task<IResult> CopyChanges(SyncTable table, string? since, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        var errors = new Dictionary<string, string[]>();
        if (SinceParameter.Parse(since, errors) is not { } watermark)
        {
            return TypedResults.ValidationProblem(errors);
        }

        await CopyRelay.RelayAsync(CopyOf(table, watermark), http, dataSource, snapshots, ct);
        return TypedResults.Empty;
    }

    internal static string CopyOf(SyncTable table, string watermark) =>
        CopyTemplate.Replace("{columns}", table.Columns, StringComparison.Ordinal)
            .Replace("{table}", table.Name, StringComparison.Ordinal)
            .Replace("{since}", watermark, StringComparison.Ordinal);
}
