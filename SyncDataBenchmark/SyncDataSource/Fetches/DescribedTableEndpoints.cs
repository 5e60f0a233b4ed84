using Npgsql;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using SyncData.Shared.Fetches;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// A table of the source's database the lab has no classes for (docs/own-table.md), served by what needs no row type
/// (its binary COPY relayed as bytes, NpgsqlCopy, and its checksum over every column), by the EF fetches (EFStream,
/// EFOffsetPaging, EFKeysetPaging) through row classes generated from the catalog (<see cref="DescribedRowClasses"/>),
/// and by ArrowStream in a schema derived from the catalog, its batches built by generated code (<see cref="DescribedArrowClasses"/>); all only reads, in the
/// run's snapshot. GrpcStream serves a described table through its own call (GrpcStreamService.Described), not a route here.
/// </summary>
public static class DescribedTableEndpoints
{
    public static void Map(IEndpointRouteBuilder app)
    {
        app.MapGet("/" + SourceRoutes.AnyTable(ApproachInfo.RouteOf(typeof(NpgsqlCopyFetch))),
            (string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, DescribedTables tables, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, t => CopyRelay.RelayAsync(t.CopyOutBinary, http, dataSource, snapshots, ct)));
        app.MapGet("/" + SourceRoutes.AnyTable(ApproachInfo.RouteOf(typeof(EFStreamFetch))),
            (string table, HttpContext http, RunSnapshots snapshots, DescribedTables tables, DescribedRowClasses classes, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, t => StreamAsync(classes, t, http, snapshots, ct)));
        app.MapGet("/" + SourceRoutes.AnyTable(ApproachInfo.RouteOf(typeof(EFOffsetPagingFetch))),
            (string table, string? offset, [AsParameters] DescribedPage page, HttpContext http, DescribedTables tables, DescribedRowClasses classes, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, t => AnswerAsync(classes, t, http, rows => rows.PageByOffsetAsync(offset, page, ct))));
        app.MapGet("/" + SourceRoutes.AnyTable(ApproachInfo.RouteOf(typeof(EFKeysetPagingFetch))),
            (string table, string? after, [AsParameters] DescribedPage page, HttpContext http, DescribedTables tables, DescribedRowClasses classes, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, t => AnswerAsync(classes, t, http, rows => rows.PageAfterAsync(after, page, ct))));
        app.MapGet("/" + SourceRoutes.AnyTable(ApproachInfo.RouteOf(typeof(ArrowStreamFetch))),
            (string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, DescribedTables tables, DescribedArrowClasses arrow, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, t => ArrowAsync(arrow, t, http, dataSource, snapshots, ct)));
        app.MapGet("/" + SourceRoutes.AnyTable(SourceRoutes.Checksum),
            (string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, DescribedTables tables, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, async t => await (await FetchApi.Checksum(t, http.Request, dataSource, snapshots, ct)).ExecuteAsync(http)));
    }

    /// <summary>EFStream through the table's generated classes.</summary>
    private static Task StreamAsync(DescribedRowClasses classes, SyncData.Postgres.SyncTable table, HttpContext http, RunSnapshots snapshots, CancellationToken ct) =>
        WithRowsAsync(classes, table, http, rows => rows.StreamAsync(http, snapshots, ct));

    /// <summary>ArrowStream in the table's derived schema; 422 naming the column when its type is one the generator does not map.</summary>
    private static async Task ArrowAsync(DescribedArrowClasses arrow, SyncData.Postgres.SyncTable table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, CancellationToken ct)
    {
        ArrowSourceRows rows;
        try
        {
            rows = arrow.Of(table);
        }
        catch (InvalidOperationException ex)
        {
            await FetchApi.Unsendable(ex.Message).ExecuteAsync(http);
            return;
        }

        await ArrowRowsStream.WriteAsync(rows, table.Name, http, dataSource, snapshots, ct);
    }

    /// <summary>A page through the table's generated classes, answered.</summary>
    private static Task AnswerAsync(DescribedRowClasses classes, SyncData.Postgres.SyncTable table, HttpContext http, Func<IDescribedSourceRows, Task<IResult>> page) =>
        WithRowsAsync(classes, table, http, async rows => await (await page(rows)).ExecuteAsync(http));

    /// <summary><paramref name="serve"/> with the table's generated rows; 422 naming the column when its type is one the generator does not map.</summary>
    private static async Task WithRowsAsync(DescribedRowClasses classes, SyncData.Postgres.SyncTable table, HttpContext http, Func<IDescribedSourceRows, Task> serve)
    {
        IDescribedSourceRows rows;
        try
        {
            rows = classes.Of(table);
        }
        catch (InvalidOperationException ex)
        {
            await FetchApi.Unsendable(ex.Message).ExecuteAsync(http);
            return;
        }

        await serve(rows);
    }

    /// <summary>404 naming why when the catalog describes no such table; otherwise <paramref name="serve"/> with it.</summary>
    private static async Task ServeAsync(string table, HttpContext http, DescribedTables tables, CancellationToken ct, Func<SyncData.Postgres.SyncTable, Task> serve)
    {
        SyncData.Postgres.SyncTable described;
        try
        {
            described = await tables.FindAsync(table, ct);
        }
        catch (TableCatalogException ex)
        {
            await TypedResults.Problem(ex.Message, statusCode: StatusCodes.Status404NotFound, title: "No such table").ExecuteAsync(http);
            return;
        }

        await serve(described);
    }
}
