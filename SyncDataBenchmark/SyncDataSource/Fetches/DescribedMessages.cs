using System.Runtime.CompilerServices;
using Google.Protobuf;
using Google.Protobuf.Collections;
using Npgsql;

namespace SyncDataSource.Fetches;

/// <summary>
/// The base of a described table's GrpcStream messages as the source fills them: the generated subclass fills one
/// message (<typeparamref name="TRow"/>, protoc's class of the table's generated .proto) from the reader's row, field by
/// field, as UsersMessages and OrdersMessages are written; this batches them. Rows per batch: the written tables' are
/// chosen for ~64 KiB messages (UsersMessages.BatchRows says why); a described table's rows are of a size only its data
/// knows, so the first <see cref="SampleRows"/> rows are measured once and the batch sized from them.
/// </summary>
public abstract class DescribedMessages<TBatch, TRow>(string query) : IDescribedMessages
    where TBatch : IMessage, new()
    where TRow : IMessage, new()
{
    private const int TargetBytes = 64 * 1024, SampleRows = 64, MaxRows = 4096;

    public string Query => query;

    protected abstract RepeatedField<TRow> RowsOf(TBatch batch);

    /// <summary>Fills <paramref name="row"/> (reused: every field is set or cleared) from the reader's current row.</summary>
    protected abstract void Fill(TRow row, NpgsqlDataReader reader);

    /// <summary>One message and its rows, reused: each is serialised before the write it is handed to completes.</summary>
    public async IAsyncEnumerable<(IMessage Batch, int Rows)> BatchesAsync(NpgsqlDataReader reader, [EnumeratorCancellation] CancellationToken ct)
    {
        var batch = new TBatch();
        var rows = RowsOf(batch);
        var reused = new List<TRow>();
        var batchRows = MaxRows;
        var sized = false;
        while (await reader.ReadAsync(ct))
        {
            if (reused.Count == rows.Count)
            {
                reused.Add(new TRow());
            }

            var row = reused[rows.Count];
            Fill(row, reader);
            rows.Add(row);
            if (!sized && rows.Count == SampleRows)
            {
                sized = true;
                batchRows = Math.Clamp(TargetBytes * SampleRows / Math.Max(1, batch.CalculateSize()), 1, MaxRows);
            }

            if (rows.Count >= batchRows)
            {
                yield return (batch, rows.Count);
                rows.Clear();
            }
        }

        if (rows.Count > 0)
        {
            yield return (batch, rows.Count);
        }
    }

    /// <summary>A text[] as its elements, a NULL one as "" with its position listed (as OrdersMessages fills tags).</summary>
    protected static void FillTextArray(RepeatedField<string> values, RepeatedField<uint> nullAt, string?[] array)
    {
        values.Clear();
        nullAt.Clear();
        for (var i = 0; i < array.Length; i++)
        {
            if (array[i] is { } value)
            {
                values.Add(value);
            }
            else
            {
                values.Add("");
                nullAt.Add((uint)i);
            }
        }
    }
}
