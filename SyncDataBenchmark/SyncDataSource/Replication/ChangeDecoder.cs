using Npgsql.Replication.PgOutput;
using Npgsql.Replication.PgOutput.Messages;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataSource.Replication;

/// <summary>
/// pgoutput's messages (protocol 1, text mode) into frames. Every value of every tuple is read, the ones not sent
/// included (Npgsql's stream desynchronises on a value or message left unread: npgsql#4237, #5208). A relation whose
/// columns are not the table's COPY columns (a DDL change on the source) is a named failure, not silent drift.
/// </summary>
internal sealed class ChangeDecoder(SyncTable table, FrameQueue frames)
{
    private const string HeartbeatPrefix = "syncdata-heartbeat";
    private readonly List<string> _columns = [.. ReplicationSql.ColumnNames(table)];

    /// <summary>For each of the relation's columns, its position in the table's COPY order.</summary>
    private int[]? _positions;

    public async Task WriteAsync(PgOutputReplicationMessage message, CancellationToken ct)
    {
        switch (message)
        {
            case RelationMessage relation:
                _positions = Positions(relation);
                break;
            case InsertMessage insert:
                await frames.AddAsync(await RowAsync(ChangeFrame.Insert, insert.NewRow, ct), ct);
                break;
            case IndexUpdateMessage keyChanged:
                // The key changed: the old key's row goes, the new one comes (read in the order they were sent).
                await frames.AddAsync(await RowAsync(ChangeFrame.Delete, keyChanged.Key, ct), ct);
                await frames.AddAsync(await RowAsync(ChangeFrame.Update, keyChanged.NewRow, ct), ct);
                break;
            case FullUpdateMessage full:
                await RowAsync(ChangeFrame.Update, full.OldRow, ct);
                await frames.AddAsync(await RowAsync(ChangeFrame.Update, full.NewRow, ct), ct);
                break;
            case UpdateMessage update:
                await frames.AddAsync(await RowAsync(ChangeFrame.Update, update.NewRow, ct), ct);
                break;
            case KeyDeleteMessage delete:
                await frames.AddAsync(await RowAsync(ChangeFrame.Delete, delete.Key, ct), ct);
                break;
            case FullDeleteMessage delete:
                await frames.AddAsync(await RowAsync(ChangeFrame.Delete, delete.OldRow, ct), ct);
                break;
            case TruncateMessage:
                throw new InvalidOperationException($"{table.Name} was truncated on the source: NpgsqlReplication does not apply TRUNCATE; drop the slot and start anew (a first copy).");
            case CommitMessage commit:
                // Received now: Npgsql's stream has just yielded it (the end of the decode stage, the start of the relay).
                await frames.AddAsync(new ChangeFrame(ChangeFrame.Commit, Lsn: commit.TransactionEndLsn.ToString(), CommittedAt: commit.TransactionCommitTimestamp,
                    ReceivedAt: DateTimeOffset.UtcNow), ct);
                break;
            case LogicalDecodingMessage decodingMessage:
                await decodingMessage.Data.CopyToAsync(Stream.Null, ct);
                if (decodingMessage.Prefix == HeartbeatPrefix)
                {
                    await frames.AddAsync(new ChangeFrame(ChangeFrame.Heartbeat, Lsn: decodingMessage.MessageLsn.ToString()), ct);
                }

                break;
        }
    }

    private int[] Positions(RelationMessage relation)
    {
        var names = relation.Columns.Select(c => c.ColumnName).ToList();
        if (!IsTheTable(relation) || names.Count != _columns.Count || names.Any(n => !_columns.Contains(n)))
        {
            throw new InvalidOperationException(
                $"The source's {relation.Namespace}.{relation.RelationName} now has the columns ({string.Join(", ", names)}), not {table.Name}'s ({table.Columns}): " +
                "a DDL change on the source table; the target is not changed to match. Stop the follower, change the target, and start anew.");
        }

        return [.. names.Select(n => _columns.IndexOf(n))];
    }

    /// <summary>The relation is the followed table: a built-in one by its name, a described one by its schema and name as stored.</summary>
    private bool IsTheTable(RelationMessage relation) =>
        table.Description is { } described
            ? relation.Namespace == described.Schema && relation.RelationName == described.Name
            : relation.RelationName == table.Name;

    /// <summary>Every value of <paramref name="tuple"/>, in the table's COPY order; 'u' values are named in Unchanged.</summary>
    private async Task<ChangeFrame> RowAsync(string op, ReplicationTuple tuple, CancellationToken ct)
    {
        var positions = _positions ?? throw new InvalidOperationException("pgoutput sent a row before its relation.");
        var values = new string?[_columns.Count];
        List<int>? unchanged = null;
        var i = 0;
        await foreach (var value in tuple.WithCancellation(ct))
        {
            var position = positions[i++];
            switch (value.Kind)
            {
                case TupleDataKind.Null:
                    break;
                case TupleDataKind.UnchangedToastedValue:
                    (unchanged ??= []).Add(position);
                    break;
                case TupleDataKind.TextValue:
                    values[position] = await value.Get<string>(ct);
                    break;
                default:
                    throw new InvalidOperationException($"pgoutput sent a {value.Kind} value; the stream asks for text.");
            }
        }

        return new ChangeFrame(op, values, unchanged?.ToArray());
    }
}
