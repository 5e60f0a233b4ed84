using SyncData.Shared;

namespace SomeService.Follow;

/// <summary>
/// Whole source transactions folded into each key's final state, applied as one target transaction: a key ends either
/// deleted or as one row to upsert. An update's unchanged TOASTed columns take the value an earlier change of the batch
/// gave them, or stay marked unchanged (the merge keeps the target's). A key is the whole primary key: the values at
/// <paramref name="keyPositions"/>, one or several columns.
/// </summary>
internal sealed class ChangeBatch(int[] keyPositions)
{
    private readonly Dictionary<string, PendingRow> _rows = [];
    private readonly List<ChangeFrame> _commits = [];

    /// <summary>Changes received (not the keys they fold into).</summary>
    public long Changes { get; private set; }

    public int Transactions { get; private set; }

    /// <summary>The LSN to store and acknowledge once the batch commits: the last commit's end, or a later heartbeat's.</summary>
    public string? Lsn { get; private set; }

    /// <summary>The source commit time of the batch's last transaction (its lag is measured to it).</summary>
    public DateTimeOffset? LastCommit { get; private set; }

    /// <summary>The commit frames of the batch's transactions, in order: their stage times (FollowStageLog).</summary>
    public IReadOnlyList<ChangeFrame> Commits => _commits;

    public bool IsEmpty => Changes == 0 && Lsn is null;

    /// <summary>Each deleted key's values, in <paramref name="keyPositions"/>' order.</summary>
    public IEnumerable<string[]> DeletedKeys => _rows.Values.Where(r => r.Deleted).Select(r => r.Key!);

    public IEnumerable<PendingRow> Upserts => _rows.Values.Where(r => !r.Deleted);

    public void Add(ChangeFrame frame)
    {
        var values = frame.Values ?? throw new InvalidOperationException($"A '{frame.Op}' frame came without values.");
        var key = Key(frame, values);
        Changes++;
        switch (frame.Op)
        {
            case ChangeFrame.Delete:
                _rows[key] = PendingRow.Gone(keyPositions.Length == 1 ? [key] : [.. keyPositions.Select(p => values[p]!)]);
                break;
            case ChangeFrame.Update when frame.Unchanged is { Length: > 0 } unchanged && _rows.TryGetValue(key, out var earlier) && !earlier.Deleted:
                // The columns this update did not send keep what the batch already holds for them.
                foreach (var position in unchanged)
                {
                    values[position] = earlier.Values[position];
                }

                _rows[key] = new PendingRow(values, earlier.Unchanged?.Intersect(unchanged).ToArray() is { Length: > 0 } still ? still : null);
                break;
            default:
                _rows[key] = new PendingRow(values, frame.Unchanged is { Length: > 0 } u ? u : null);
                break;
        }
    }

    /// <summary>
    /// The change's key: a one-column key is its value, with no array or join made per change (a drain folds tens of
    /// thousands a second); a composite key its values joined by NUL, which PostgreSQL's text never holds, so joined they
    /// name one key and no other.
    /// </summary>
    private string Key(ChangeFrame frame, string?[] values)
    {
        if (keyPositions.Length == 1)
        {
            return values[keyPositions[0]] ?? throw NoKey(frame);
        }

        foreach (var position in keyPositions)
        {
            _ = values[position] ?? throw NoKey(frame);
        }

        return string.Join('\0', keyPositions.Select(p => values[p]));
    }

    private static InvalidOperationException NoKey(ChangeFrame frame) => new($"A '{frame.Op}' frame came without its key.");

    public void Commit(ChangeFrame commit)
    {
        Transactions++;
        _commits.Add(commit);
        Lsn = commit.Lsn;
        LastCommit = commit.CommittedAt;
    }

    /// <summary>Nothing of the table changed up to the heartbeat's LSN: it joins the batch's acknowledgement.</summary>
    public void Heartbeat(ChangeFrame heartbeat) => Lsn = heartbeat.Lsn;

    /// <summary>A key's final row: its values (COPY order, text) and the positions whose target values to keep; or deleted, with its key's values.</summary>
    internal sealed record PendingRow(string?[] Values, int[]? Unchanged, string[]? Key = null)
    {
        public static PendingRow Gone(string[] key) => new([], null, key);

        public bool Deleted => Key is not null;
    }
}
