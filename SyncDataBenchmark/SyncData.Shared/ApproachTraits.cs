namespace SyncData.Shared;

/// <summary>
/// What an approach does with a table described only from a catalog (docs/own-table.md), declared once on its class
/// (<see cref="ApproachAttribute.Traits"/>): whether it carries one at all through row classes generated from the
/// catalog (<see cref="GeneratedRows"/>: a writer through SomeService's, a fetch through both services'), and what a
/// writer's library then needs of the table. DescribedTableReach refuses a run by these, naming the writer's
/// <see cref="ApproachAttribute.Library"/>.
/// </summary>
[Flags]
public enum ApproachTraits
{
    None = 0,

    /// <summary>A writer: it writes a described table through the row class SomeService generates from the catalog. A fetch: both its halves read and send a described table's rows as objects of the classes each service generates.</summary>
    GeneratedRows = 1,

    /// <summary>It sends INSERT (not COPY, nor a MERGE from SQL the lab writes), and its library never sends OVERRIDING SYSTEM VALUE: no GENERATED ALWAYS identity column.</summary>
    Inserts = 2,

    /// <summary>Its library COPYs each value typed by EF Core's store type name of its column, as SQL spells it: an enum whose name SQL must quote is not resolved.</summary>
    StoreTypeNamed = 4,

    /// <summary>Its library takes entities EF Core tracks by key (EFCore.BulkExtensions reads the key from the model too): the table needs a primary key.</summary>
    EFTracked = 8,

    /// <summary>A fetch that orders the table by its primary key (the paging fetches cut their pages in key order, keyset paging asks for the rows after a whole key): the table needs one.</summary>
    Keyed = 32,
}
