using Apache.Arrow;
using Npgsql;

namespace SyncDataSource.Tables;

/// <summary>
/// One table's rows as ArrowStream's source reads and batches them (a new instance per request): the guarded query,
/// whose refusals of a value Arrow cannot carry end with <see cref="SyncData.Arrow.ArrowFormat.Refusal"/>, and the
/// batch the reader's rows are appended to (the table's schema and builders in SyncData.Arrow).
/// </summary>
public abstract class ArrowSourceRows
{
    public abstract string Query { get; }

    public abstract Schema Schema { get; }

    /// <summary>Rows appended since the last <see cref="Build"/>.</summary>
    public abstract int Count { get; }

    /// <summary>The reader's current row, read synchronously from Npgsql's buffer.</summary>
    public abstract void Append(NpgsqlDataReader row);

    public abstract RecordBatch Build();
}
