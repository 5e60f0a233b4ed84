using System.Collections.Concurrent;
using SyncData.Grpc.Described;
using SyncData.Model.Generated;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using SyncDataSource.Fetches;

namespace SyncDataSource.Tables;

/// <summary>
/// The GrpcStream messages of the described tables: each table's .proto generated from the catalog (<see cref="DescribedProto"/>),
/// compiled by protoc, and its classes compiled with Roslyn beside the code that fills them (<see cref="MessageFillSource"/>);
/// once per description, at the table's first call, kept for the process.
/// </summary>
public sealed class DescribedMessageClasses
{
    private const string Prefix = "SyncDataSource.Messages";

    // By the described table itself (DescribedTables keeps one per name), as DescribedRowClasses: nothing is generated again per call.
    private readonly ConcurrentDictionary<SyncTable, Lazy<IDescribedMessages>> _tables = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// <paramref name="table"/>'s messages; an <see cref="InvalidOperationException"/> naming the column when a column's
    /// type is one the generator does not map, or naming protoc when it is missing or fails.
    /// </summary>
    public IDescribedMessages Of(SyncTable table)
    {
        var description = table.Description ?? throw new ArgumentException($"{table.Name} is built in: its messages are in grpc_stream.proto.", nameof(table));
        return _tables.GetOrAdd(table, _ => new(() => Build(description))).Value;
    }

    private static IDescribedMessages Build(TableDescription description)
    {
        // The same description generates the same .proto: its namespace, named after it, is compiled once per process.
        var ns = RowClassCompiler.Namespace(Prefix, DescribedProto.Of(description, Prefix));
        var wire = ns + ".Wire";
        var messages = Protoc.CSharp(DescribedProto.Of(description, wire));
        var assembly = RowClassCompiler.Compile(MessageFillSource.Of(description, ns, wire), ns, messages);
        var type = assembly.GetType($"{ns}.{MessageFillSource.TypeName}", throwOnError: true)!;
        return (IDescribedMessages)Activator.CreateInstance(type, SendableSelect.AsWireText(description, SendableDbContext.Refusal))!;
    }
}
