using System.Collections.Concurrent;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Sync;
using SyncData.Model;
using SyncData.Grpc.Described;
using SyncData.Model.Generated;
using SyncData.Postgres;

namespace SomeService.Tables.Generated;

/// <summary>
/// The row tables generated for described tables, made at the trigger (outside the run's measured window, as the
/// catalog read is) and kept: the classes compiled once per description (<see cref="RowClassCompiler"/>), and for a
/// table with enums or an interval a data source of its own on the target's connection settings, on which they are
/// mapped. Npgsql takes type mappings only while a data source is built, and the service's target data source is built
/// before any table is described, so a run of such a table opens its connection from this one (SyncTransfer,
/// <see cref="IRowTable.DataSource"/>); any other table's run uses the service's own, as a built-in table's does.
/// </summary>
public sealed class GeneratedRowTables(IConfiguration configuration, IOptions<SyncOptions> options) : IAsyncDisposable
{
    private readonly ConcurrentDictionary<string, Lazy<IRowTable>> _tables = new(StringComparer.Ordinal);

    /// <summary>The generated row table of described table <paramref name="table"/>, compiled and its data source built on first use.</summary>
    public IRowTable Of(SyncTable table)
    {
        var description = table.Description ?? throw new ArgumentException($"{table.Name} is built in: its row table is written by hand.", nameof(table));
        // The same description generates the same source: generated once per trigger as the key, and compiled (in its own
        // namespace, named after it) only the first time.
        var key = Generate(table, "SomeService.Generated", "SomeService.Generated.Wire");
        return _tables.GetOrAdd(key, k => new Lazy<IRowTable>(() => Build(table, RowClassCompiler.Namespace("SomeService.Generated", k)))).Value;
    }

    private IRowTable Build(SyncTable table, string ns)
    {
        // GrpcStream's messages as protoc compiles the table's generated .proto; without protoc (not linux-x64) the
        // table is generated without them, and GrpcStream on it fails naming why.
        var wire = ns + ".Wire";
        string? messages;
        try
        {
            messages = Protoc.CSharp(DescribedProto.Of(table.Description!, wire));
        }
        catch (InvalidOperationException)
        {
            messages = null;
        }

        var source = Generate(table, ns, messages is null ? null : wire);
        var type = RowClassCompiler.Compile(source, ns, messages is null ? [] : [messages]).GetType($"{ns}.{RowTableSource.TypeName}", throwOnError: true)!;
        if (!(bool)type.GetField("MapsTypes")!.GetValue(null)!)
        {
            // Nothing to map (no enum, no interval): the run's connection comes from the service's own data source, as
            // a built-in table's does, not from a second pool of its own to keep warm and to clear after an outage.
            return (IRowTable)Activator.CreateInstance(type, table, null)!;
        }

        var connectionString = configuration.GetConnectionString("Target") ?? throw new InvalidOperationException("ConnectionStrings:Target is not configured.");
        var builder = new NpgsqlDataSourceBuilder(connectionString) { Name = "Target" };
        TargetConnection.Configure(options.Value, builder.ConnectionStringBuilder);
        SyncDbContext.MapTypes(builder);
        type.GetMethod("MapTypes")!.CreateDelegate<Action<NpgsqlDataSourceBuilder>>()(builder);
        return (IRowTable)Activator.CreateInstance(type, table, builder.Build())!;
    }

    private static string Generate(SyncTable table, string ns, string? wire) =>
        RowClassSource.Generate(table.Name, table.Description!, ns, RowTableSource.Reserved, RowTableSource.For(table.Name, table.Description!, wire));

    public async ValueTask DisposeAsync()
    {
        foreach (var table in _tables.Values.Where(t => t.IsValueCreated))
        {
            if (table.Value.DataSource is { } dataSource)
            {
                await dataSource.DisposeAsync();
            }
        }
    }
}
