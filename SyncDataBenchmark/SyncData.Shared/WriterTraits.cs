namespace SyncData.Shared;

/// <summary>
/// What a writer does with a table described only from a catalog (docs/own-table.md), declared once on its class
/// (<see cref="ApproachAttribute.Traits"/>): whether it carries one at all through SomeService's generated row class,
/// and what its library then needs of the table. DescribedTableReach refuses a run by these, naming the writer's
/// <see cref="ApproachAttribute.Library"/>; they are declared on the writers that carry one (<see cref="GeneratedRows"/>).
/// </summary>
[Flags]
public enum WriterTraits
{
    None = 0,

    /// <summary>It writes a described table through the row class SomeService generates from the catalog (its use of a row class is generated).</summary>
    GeneratedRows = 1,

    /// <summary>It sends INSERT (not COPY, nor a MERGE from SQL the lab writes), and its library never sends OVERRIDING SYSTEM VALUE: no GENERATED ALWAYS identity column.</summary>
    Inserts = 2,

    /// <summary>Its library COPYs each value typed by EF Core's store type name of its column, as SQL spells it: an enum whose name SQL must quote is not resolved.</summary>
    StoreTypeNamed = 4,

    /// <summary>Its library takes entities EF Core tracks by key (EFCore.BulkExtensions reads the key from the model too): the table needs a primary key.</summary>
    EFTracked = 8,

    /// <summary>
    /// It finds rows by a one-column key of bigint or uuid: the types EFMergeKeys knows, and the keys Linq2DBMerge
    /// sends back as text for its deletes (the generated row table gives them: RowTableSource).
    /// </summary>
    OneColumnKeyed = 16,
}
