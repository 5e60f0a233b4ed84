using System.Collections.Concurrent;
using Npgsql;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;

namespace SyncDataSource.Tables;

/// <summary>
/// The tables of the source's database that the lab has no classes for (a team's own), each read once from the
/// catalog through the service's own connection: only SELECTs of pg_catalog, so a role that may only read the table
/// serves it (docs/own-table.md). A built-in table is never looked up here: its routes are literal and win.
/// </summary>
public sealed class DescribedTables(NpgsqlDataSource dataSource)
{
    private readonly ConcurrentDictionary<string, Lazy<Task<SyncTable>>> _tables = new(StringComparer.Ordinal);

    /// <summary>The table <paramref name="name"/> names (as SQL reads it), described; <see cref="TableCatalogException"/> when it is none.</summary>
    public async Task<SyncTable> FindAsync(string name, CancellationToken ct)
    {
        var entry = _tables.GetOrAdd(name, n => new Lazy<Task<SyncTable>>(() => DescribeAsync(n)));
        try
        {
            return await entry.Value.WaitAsync(ct);
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            // Not kept: the table may be created, or the database reached, by the next request.
            _tables.TryRemove(new KeyValuePair<string, Lazy<Task<SyncTable>>>(name, entry));
            throw;
        }
    }

    private async Task<SyncTable> DescribeAsync(string name)
    {
        await using var connection = await dataSource.OpenConnectionAsync();
        return SyncTable.Of(name, await TableCatalog.ReadAsync(connection, name));
    }
}
