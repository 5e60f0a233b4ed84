using SyncData.Postgres.Catalog;

namespace SyncData.Grpc.Described;

/// <summary>One COPY column of a described table in its generated GrpcStream message (<see cref="DescribedProto"/>).</summary>
/// <param name="Index">Its place in the COPY (and in the source's query).</param>
/// <param name="Column">The column as the catalog describes it.</param>
/// <param name="Kind">How its generated row class holds it (<see cref="ColumnClrTypes"/>), which decides its field type.</param>
/// <param name="Property">The C# property protoc generates for its field ("C3"); a uuid adds High/Low, text[] NullAt and, nullable, IsNull.</param>
public sealed record ProtoField(int Index, TableColumn Column, ColumnValueKind Kind, string Property)
{
    public bool Nullable => !Column.NotNull;
}
