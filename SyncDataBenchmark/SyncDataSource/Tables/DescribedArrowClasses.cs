using System.Collections.Concurrent;
using Apache.Arrow;
using SyncData.Arrow;
using SyncData.Model.Generated;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>
/// ArrowStream's rows of the described tables: each table's schema derived from its catalog (<see cref="DescribedArrow"/>),
/// its guarded query (<see cref="SendableSelect.AsWireText"/>) and its rows class compiled with Roslyn
/// (<see cref="ArrowRowsSource"/>); once per description, at the table's first request, kept for the process. Each
/// request takes a fresh instance (its own builders).
/// </summary>
public sealed class DescribedArrowClasses
{
    private const string Prefix = "SyncDataSource.ArrowRows";

    // By the described table itself (DescribedTables keeps one per name), as DescribedRowClasses: nothing is derived again per request.
    private readonly ConcurrentDictionary<SyncTable, Lazy<Func<ArrowSourceRows>>> _tables = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// A fresh rows instance of <paramref name="table"/>; an <see cref="InvalidOperationException"/> naming the column when
    /// a column's type is one the generator does not map.
    /// </summary>
    public ArrowSourceRows Of(SyncTable table)
    {
        var description = table.Description ?? throw new ArgumentException($"{table.Name} is built in: its Arrow rows are written by hand.", nameof(table));
        return _tables.GetOrAdd(table, _ => new(() => Build(description))).Value();
    }

    private static Func<ArrowSourceRows> Build(TableDescription description)
    {
        var schema = DescribedArrow.Of(description);
        var query = SendableSelect.AsWireText(description, SendableDbContext.Refusal);
        // The same description generates the same source: its namespace, named after it, is compiled once per process.
        var ns = RowClassCompiler.Namespace(Prefix, ArrowRowsSource.Of(description, Prefix));
        var assembly = RowClassCompiler.Compile(ArrowRowsSource.Of(description, ns), ns);
        var type = assembly.GetType($"{ns}.{ArrowRowsSource.TypeName}", throwOnError: true)!;
        var create = type.GetMethod("New")!.CreateDelegate<Func<string, Schema, ArrowSourceRows>>();
        return () => create(query, schema);
    }
}
