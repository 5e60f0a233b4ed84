using SomeService.Tables;
using SyncData.Postgres;
using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>One run's parameters, validated; <paramref name="Compression"/> is a <see cref="BodyCompression"/> name.</summary>
public sealed record SyncRequest(FetchApproach Fetch, InsertApproach Insert, int PageSize, int BatchSize,
    string Compression = BodyCompression.None)
{
    /// <summary>The table the run moves; users unless the trigger named another.</summary>
    public SyncTable Table { get; init; } = SyncTable.Default;

    /// <summary>
    /// The row table a typed writer writes <see cref="Table"/> through when the lab has none written for it: the one
    /// generated from its description at the trigger (Tables/Generated); null for a built-in table (IRowTable.Of).
    /// </summary>
    public IRowTable? Rows { get; init; }

    /// <summary>The run's row table: the generated one, or the built-in table's.</summary>
    public IRowTable RowTable => Rows ?? IRowTable.Of(Table);
}
