using Npgsql;
using SyncData.Postgres.Catalog;
using SyncData.Shared;
using SyncDataSource.Runs;
using SyncDataSource.Tables;

namespace SyncDataSource.Fetches;

/// <summary>
/// What the fetches' handlers of a table the lab has no classes for (docs/own-table.md) share: the table found in the
/// catalog once per request (404 naming why when it describes none), its generated rows (422 naming the column when
/// the generator maps no type of it), and its checksum route. Each fetch that carries a described table says how in
/// its own endpoint class (<see cref="IFetchEndpoint.DescribedHandler"/>), mapped by <see cref="FetchEndpoints"/>; all
/// only read, in the run's snapshot.
/// </summary>
public static class DescribedTableEndpoints
{
    public static void Map(IEndpointRouteBuilder app) =>
        app.MapGet("/" + SourceRoutes.AnyTable(SourceRoutes.Checksum),
            (string table, HttpContext http, NpgsqlDataSource dataSource, RunSnapshots snapshots, DescribedTables tables, CancellationToken ct) =>
                ServeAsync(table, http, tables, ct, async t => await (await FetchApi.Checksum(t, http.Request, dataSource, snapshots, ct)).ExecuteAsync(http)));

    /// <summary>A page through the table's generated classes, answered.</summary>
    internal static Task AnswerAsync(DescribedRowClasses classes, SyncData.Postgres.SyncTable table, HttpContext http, Func<IDescribedSourceRows, Task<IResult>> page) =>
        WithRowsAsync(classes, table, http, async rows => await (await page(rows)).ExecuteAsync(http));

    /// <summary><paramref name="serve"/> with the table's generated rows; 422 naming the column when its type is one the generator does not map.</summary>
    internal static Task WithRowsAsync(DescribedRowClasses classes, SyncData.Postgres.SyncTable table, HttpContext http, Func<IDescribedSourceRows, Task> serve) =>
        WithGeneratedAsync(() => classes.Of(table), http, serve);

    /// <summary><paramref name="serve"/> with what <paramref name="generate"/> builds for the table; 422 naming the column when the generator refuses its type.</summary>
    internal static async Task WithGeneratedAsync<TGenerated>(Func<TGenerated> generate, HttpContext http, Func<TGenerated, Task> serve)
    {
        TGenerated generated;
        try
        {
            generated = generate();
        }
        catch (InvalidOperationException ex)
        {
            await FetchApi.Unsendable(ex.Message).ExecuteAsync(http);
            return;
        }

        await serve(generated);
    }

    /// <summary>404 naming why when the catalog describes no such table; otherwise <paramref name="serve"/> with it.</summary>
    internal static async Task ServeAsync(string table, HttpContext http, DescribedTables tables, CancellationToken ct, Func<SyncData.Postgres.SyncTable, Task> serve)
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
