using Apache.Arrow;
using SyncData.Arrow;
using SyncData.Postgres.Catalog;

namespace SyncDataSource.Tables;

/// <summary>
/// A described table for ArrowStream, derived from its description as UsersArrowRows and OrdersArrowRows are written:
/// the query the EF fetches read it by (<see cref="SendableSelect"/>: a value the generated row class on the other side
/// cannot hold is refused by row, column and value before it is sent), its numerics, json, jsonb and enum labels as
/// PostgreSQL's text, every column appended in its Arrow type (<see cref="DescribedArrow"/>).
/// </summary>
public sealed class DescribedArrowRows : ArrowSourceRows
{
    private readonly DescribedArrowColumn[] _columns;

    public DescribedArrowRows(TableDescription table, string refusal)
    {
        Schema = DescribedArrow.Of(table);
        var columns = table.CopyColumns;
        var kinds = columns.Select(c => ColumnClrTypes.Of(c, out _)!.Kind).ToList();
        Query = SendableSelect.AsWireText(table, refusal);
        _columns = [.. columns.Select((c, i) => DescribedArrowColumn.For(kinds[i], Schema.FieldsList[i].DataType, i, !c.NotNull))];
    }

    public override string Query { get; }

    public override Schema Schema { get; }

    public override int Count => _count;

    private int _count;

    public override void Append(Npgsql.NpgsqlDataReader row)
    {
        foreach (var column in _columns)
        {
            column.Append(row);
        }

        _count++;
    }

    public override RecordBatch Build()
    {
        var batch = new RecordBatch(Schema, _columns.Select(c => c.Build(_count)), _count);
        _count = 0;
        return batch;
    }
}
