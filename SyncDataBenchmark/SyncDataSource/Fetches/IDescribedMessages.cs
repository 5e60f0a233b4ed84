using Google.Protobuf;
using Npgsql;

namespace SyncDataSource.Fetches;

/// <summary>A described table's GrpcStream messages as the source fills them (<see cref="DescribedMessages{TBatch, TRow}"/>), whatever their generated types.</summary>
public interface IDescribedMessages
{
    /// <summary>The guarded query the messages are filled from, column by column.</summary>
    string Query { get; }

    /// <summary>The reader's rows in batches of about 64 KiB, each with its row count.</summary>
    IAsyncEnumerable<(IMessage Batch, int Rows)> BatchesAsync(NpgsqlDataReader reader, CancellationToken ct);
}
