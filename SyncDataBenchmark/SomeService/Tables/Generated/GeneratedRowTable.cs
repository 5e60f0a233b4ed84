using SyncData.Model.Generated;
using System.Text.Json.Serialization.Metadata;
using Apache.Arrow;
using Npgsql;
using SomeService.Fetch;
using SyncData.Postgres;

namespace SomeService.Tables.Generated;

/// <summary>
/// The base of a row table generated from a described table's catalog (<see cref="RowClassSource"/>): the generated
/// subclass writes the COPY decoder, <see cref="RowTable{TRow}.Write"/> and the EF context per column, and the key as
/// text for a one-column key of bigint or uuid (Linq2DBMerge's deletes); this holds the table, the data source its
/// enums are mapped on, and EFStream's JSON of the class. NpgsqlCopy and EFStream carry a described table
/// (DescribedTableReach), so the other fetches' mappings are refused here.
/// </summary>
public abstract class GeneratedRowTable<TRow>(SyncTable table, NpgsqlDataSource dataSource) : RowTable<TRow>
    where TRow : class
{
    public override SyncTable Table => table;

    public override NpgsqlDataSource? DataSource => dataSource;

    /// <summary>EFStream's rows, as the source's generated classes write them (<see cref="GeneratedRowJson"/>).</summary>
    public override JsonTypeInfo<TRow> Json { get; } = GeneratedRowJson.Of<TRow>();

    public override string KeyOf(TRow row) => throw NotGenerated("its key as text, but for a one-column key of bigint or uuid (Linq2DBMerge's deletes)");

    public override IGrpcStreamRows<TRow> GrpcStream => throw NotGenerated("its gRPC messages");

    public override string? ArrowMismatch(Schema received) => throw NotGenerated("its Arrow schema");

    public override IEnumerable<TRow> ArrowRows(RecordBatch batch) => throw NotGenerated("its Arrow schema");

    public override ArrowCopyColumns ArrowCopy => throw NotGenerated("its Arrow schema");

    private NotSupportedException NotGenerated(string what) =>
        new($"{table.Name} is a described table: its row class is generated for the NpgsqlCopy and EFStream fetches, not {what} (issue 49, part 3).");
}
