namespace SomeService.Insert;

/// <summary>
/// What a merge is fed. A change fetch (<see cref="Changes"/>): the rows inserted or updated since the target's
/// watermark, and the keys deleted since then (as the source prints them: uuid or bigint text). A full fetch
/// (<see cref="WholeTable"/>): every source row; the target's rows the source no longer has are to be deleted.
/// </summary>
public sealed record MergeScope(IReadOnlyList<string>? DeletedKeys)
{
    public static readonly MergeScope WholeTable = new((IReadOnlyList<string>?)null);

    public static MergeScope Changes(IReadOnlyList<string> deletedKeys) => new(deletedKeys);

    /// <summary>True when the rows are the whole source table, so deleting means "every target row not among them".</summary>
    public bool IsWholeTable => DeletedKeys is null;
}
