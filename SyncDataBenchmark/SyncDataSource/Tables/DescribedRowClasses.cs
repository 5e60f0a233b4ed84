using System.Collections.Concurrent;
using Microsoft.EntityFrameworkCore;
using Npgsql;
using SyncData.Model.Generated;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>
/// The row classes generated for the described tables the EF fetches serve: compiled once per description (the same
/// description generates the same source), read on the service's own data source, or for a table with enums or an
/// interval on a data source of its own on the same settings, on which they are mapped (Npgsql takes type mappings only
/// while a data source is built, and the service's was built before any table was described). Made at the first
/// request of a table, kept for the process.
/// </summary>
public sealed class DescribedRowClasses(IConfiguration configuration, NpgsqlDataSource service) : IAsyncDisposable
{
    private const string Prefix = "SyncDataSource.Generated";
    // By the described table itself (DescribedTables keeps one per name): a page request finds its classes without
    // generating their source again, which would be work inside the run's measured window, once per page.
    private readonly ConcurrentDictionary<SyncTable, Lazy<(IDescribedSourceRows Rows, NpgsqlDataSource? Own)>> _tables = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// <paramref name="table"/>'s rows through its generated classes; an <see cref="InvalidOperationException"/> naming
    /// the column when a column's type is one the generator does not map (ColumnClrTypes).
    /// </summary>
    public IDescribedSourceRows Of(SyncTable table)
    {
        var description = table.Description ?? throw new ArgumentException($"{table.Name} is built in: its row class is written by hand.", nameof(table));
        return _tables.GetOrAdd(table, t => new(() => Build(t.Name, description))).Value.Rows;
    }

    private (IDescribedSourceRows, NpgsqlDataSource?) Build(string name, TableDescription description)
    {
        // The same description generates the same source: its namespace, named after it, is compiled once per process.
        var tail = SendableQueryTail.Of(SendableSelect.Of(description, SendableDbContext.Refusal));
        var ns = RowClassCompiler.Namespace(Prefix, RowClassSource.Generate(name, description, Prefix, [], tail));
        var assembly = RowClassCompiler.Compile(RowClassSource.Generate(name, description, ns, [], tail), ns);
        var entityName = RowClassSource.EntityOf(description);
        var entity = assembly.GetType($"{ns}.{entityName}", throwOnError: true)!;
        var context = assembly.GetType($"{ns}.{RowClassSource.ContextOf(entityName)}", throwOnError: true)!;
        // A table with nothing to map (no enum, no interval) is read on the service's own data source, as a built-in table is.
        var own = (bool)context.GetField("MapsTypes")!.GetValue(null)! ? OwnDataSource(context) : null;
        var dataSource = own ?? service;
        // Pooled, as SendableDbContext is: a context made and disposed per page paid EF's options lookup and service
        // resolution on every page (seen in dotnet-trace: DbContext.get_ContextServices, ServiceProviderCache, Interceptors).
        var pool = context.GetMethod("Pool")!.CreateDelegate<Func<NpgsqlDataSource, Func<DbContext>>>()(dataSource);
        var rows = (IDescribedSourceRows)Activator.CreateInstance(typeof(DescribedSourceRows<>).MakeGenericType(entity), pool)!;
        return (rows, own);
    }

    /// <summary>A data source on the service's connection settings with the context's enums (and NodaTime) mapped: Npgsql takes them only while one is built.</summary>
    private NpgsqlDataSource OwnDataSource(Type context)
    {
        var connectionString = configuration.GetConnectionString("Source") ?? throw new InvalidOperationException("ConnectionStrings:Source is not configured.");
        var builder = new NpgsqlDataSourceBuilder(connectionString) { Name = "Source" };
        context.GetMethod("MapTypes")!.CreateDelegate<Action<NpgsqlDataSourceBuilder>>()(builder);
        return builder.Build();
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var table in _tables.Values.Where(t => t.IsValueCreated))
        {
            if (table.Value.Own is { } own)
            {
                await own.DisposeAsync();
            }
        }
    }
}
