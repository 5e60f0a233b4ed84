using SyncData.Shared;

namespace SyncData.Postgres.Catalog;

/// <summary>
/// Which approaches can carry a table the lab has no classes for, only a catalog's description: the one rule SomeService
/// refuses a run by and the runner names the rest by before any run (docs/own-table.md). What needs no row type
/// carries it: the source's binary COPY relayed as bytes (NpgsqlCopy) into a writer of COPY bytes, a reload or, given a
/// primary key, a merge. The typed writers that declare <see cref="ApproachTraits.GeneratedRows"/> carry it too, through SomeService's row
/// class generated from the description, when every COPY column's type is one the generator maps (<see cref="ColumnClrTypes"/>)
/// and the table gives their library what it needs (the rest of their <see cref="ApproachInfo.Traits"/>, declared on each writer's class).
/// So does a fetch that declares GeneratedRows (the EF fetches: both services generate the entity from their catalogs;
/// ArrowStream: both derive the schema from them; GrpcStream: both generate the .proto from them) into such a writer,
/// given the key it pages by. The other fetches build each row as an object of a class written per table, which a described table
/// does not have.
/// </summary>
public static class DescribedTableReach
{
    /// <summary>
    /// The one fetch whose source half relays a table's COPY bytes without a row type, known by what it declares: it
    /// delivers COPY bytes, of the whole table (not changes), and builds no row class (so not ArrowStream).
    /// </summary>
    public static string CarryingFetch { get; } = ApproachCatalog.DeclaredFetches
        .Single(f => f.CopyBytes && !f.Changes && !f.Traits.HasFlag(ApproachTraits.GeneratedRows)).Name;

    /// <summary>Why <paramref name="fetch"/> × <paramref name="insert"/> cannot carry <paramref name="table"/>, or null when it can.</summary>
    public static string? WhyNot(ApproachInfo fetch, ApproachInfo insert, TableDescription table)
    {
        if (fetch.Name != CarryingFetch)
        {
            return WhyNoTypedFetch(fetch, insert, table);
        }

        if (!insert.CopyBytes)
        {
            return WhyNoTypedWriter(insert, table);
        }

        if (insert.Merges)
        {
            return WhyNoMerge(insert, table);
        }

        return null;
    }

    /// <summary>
    /// A fetch that builds typed rows carries a described table when it declares <see cref="ApproachTraits.GeneratedRows"/>
    /// (both services generate its classes from their catalogs) and the table has the key it pages by (<see cref="ApproachTraits.Keyed"/>),
    /// into a typed writer that carries it too: the same columns of mapped
    /// types, and what the writer's library needs.
    /// </summary>
    private static string? WhyNoTypedFetch(ApproachInfo fetch, ApproachInfo insert, TableDescription table)
    {
        if (fetch.Changes)
        {
            return $"{fetch.Name} reads the change log (triggers and a table on the source), which a user's database does not get";
        }

        if (!fetch.Traits.HasFlag(ApproachTraits.GeneratedRows))
        {
            return $"{fetch.Name} builds each row as an object of a class written per table; none is generated for a described table";
        }

        if (fetch.Traits.HasFlag(ApproachTraits.Keyed) && table.PrimaryKey.Count == 0)
        {
            return $"{fetch.Name} cuts its pages in primary-key order, and {table.QualifiedName} has no primary key";
        }

        if (table.CopyColumns.FirstOrDefault(c => ColumnClrTypes.Of(c, out _) is { } clr && ColumnClrTypes.OnlyFromCopy(clr.Kind)) is { } unsent)
        {
            return $"{fetch.Name} sends rows in a wire format generated per type (JSON, Arrow's schema, the table's .proto), which carries no {unsent.Base!.Formatted} yet, " +
                   $"and {table.QualifiedName}'s column {TableDescription.Quote(unsent.Name)} is {unsent.Type} (NpgsqlCopy carries it into the typed writers)";
        }

        // ArrowStream hands COPY bytes for a described table too: its batches encoded by the description (SomeService's DescribedArrowCopyColumns).
        if (insert.CopyBytes)
        {
            return !fetch.CopyBytes ? $"{insert.Name} writes PostgreSQL's COPY bytes, which {fetch.Name} does not hand over"
                : WhyNoWireType(fetch, table) ?? (insert.Merges ? WhyNoMerge(insert, table) : null);
        }

        return WhyNoTypedWriter(insert, table);
    }

    /// <summary>A typed fetch into a COPY-bytes writer: its wire format is derived from the generated class's types, so every COPY column must be of one the generator maps.</summary>
    private static string? WhyNoWireType(ApproachInfo fetch, TableDescription table)
    {
        foreach (var column in table.CopyColumns)
        {
            if (ColumnClrTypes.Of(column, out var why) is null)
            {
                return $"{fetch.Name} derives its wire format from the class generated from the table's catalog, and {table.QualifiedName}'s column " +
                       $"{TableDescription.Quote(column.Name)} is {column.Type}: {why}";
            }
        }

        return null;
    }

    /// <summary>
    /// A typed writer carries a described table through the row class SomeService generates from its description: every
    /// COPY column of a type the generator maps, and what its library needs besides (<see cref="WhyNotByLibrary"/>); a
    /// merge also what every merge needs (<see cref="WhyNoMerge"/>).
    /// </summary>
    private static string? WhyNoTypedWriter(ApproachInfo insert, TableDescription table)
    {
        if (!insert.Traits.HasFlag(ApproachTraits.GeneratedRows))
        {
            return $"{insert.Name} writes typed rows through a row class written per table; its use of one is not generated for a described table yet";
        }

        foreach (var column in table.CopyColumns)
        {
            if (ColumnClrTypes.Of(column, out var why) is null)
            {
                return $"{insert.Name} ({insert.Library}) writes rows of a class generated from the table's catalog, and {table.QualifiedName}'s column " +
                       $"{TableDescription.Quote(column.Name)} is {column.Type}: {why}";
            }
        }

        return (insert.Merges ? WhyNoMerge(insert, table) : null) ?? WhyNotByLibrary(insert, table);
    }

    /// <summary>What the writer's library cannot do with the table's generated class, by the traits its class declares.</summary>
    private static string? WhyNotByLibrary(ApproachInfo insert, TableDescription table)
    {
        var quoted = table.CopyColumns.FirstOrDefault(c => c.Base is { Kind: "e", NameNeedsQuotes: true });
        if (quoted is not null && insert.Traits.HasFlag(ApproachTraits.StoreTypeNamed))
        {
            return $"{insert.Name} ({insert.Library}) hands Npgsql's binary importer EF Core's store type of {table.QualifiedName}'s column {TableDescription.Quote(quoted.Name)}, " +
                   $"the enum's SQL-quoted name {quoted.Type}, which Npgsql does not resolve to the type (a name SQL need not quote works)";
        }

        if (table.PrimaryKey.Count == 0 && insert.Traits.HasFlag(ApproachTraits.EFTracked))
        {
            return $"{insert.Name} ({insert.Library}) adds entities EF Core tracks by key, and {table.QualifiedName} has no primary key (a keyless entity type cannot be inserted)";
        }

        // Seen with macaddr: linq2db hands Npgsql the PhysicalAddress as a string, which Npgsql refuses for NpgsqlDbType.MacAddr.
        var odd = table.CopyColumns.FirstOrDefault(c => ColumnClrTypes.Of(c, out _)?.Kind is ColumnValueKind.MacAddr or ColumnValueKind.Point
            or ColumnValueKind.Circle or ColumnValueKind.Inet or ColumnValueKind.Cidr);
        if (odd is not null && insert.Library == "linq2db")
        {
            return $"{insert.Name} (linq2db) hands Npgsql a macaddr's PhysicalAddress as a string, which Npgsql refuses for that type (point, circle, inet and cidr " +
                   $"are not tried through linq2db yet), and {table.QualifiedName}'s column {TableDescription.Quote(odd.Name)} is {odd.Type}";
        }

        // Seen: EFCore.BulkExtensions hands the importer the element's store type for an array of numeric or of a character
        // type ("numeric" for numeric[] and numeric(12,2)[], "character" for character(2)[]), which Npgsql takes for the element.
        var elements = table.CopyColumns.FirstOrDefault(c => c.Base is { Element: "numeric" or "bpchar" or "varchar" });
        if (elements is not null && insert.Library == "EFCore.BulkExtensions")
        {
            return $"{insert.Name} ({insert.Library}) hands Npgsql's binary importer EF Core's store type of {table.QualifiedName}'s column {TableDescription.Quote(elements.Name)}, " +
                   $"{elements.Base!.Formatted}, as its element's, which Npgsql takes for the element type and refuses the array (the other writers carry it)";
        }

        var always = table.CopyColumns.FirstOrDefault(c => c.Identity == "a");
        return always is not null && insert.Traits.HasFlag(ApproachTraits.Inserts)
            ? $"{insert.Name} ({insert.Library}) INSERTs, and {table.QualifiedName}'s column {TableDescription.Quote(always.Name)} is GENERATED ALWAYS AS IDENTITY, " +
              "which an INSERT may set only with OVERRIDING SYSTEM VALUE, which the library does not send"
            : null;
    }

    /// <summary>
    /// A merge (staging table, MERGE by primary key, deletes) needs the key; a GENERATED ALWAYS identity column outside it
    /// can be inserted with the source's value (OVERRIDING SYSTEM VALUE) but never updated to it (UPDATE sets such a
    /// column only to DEFAULT), so a changed row could not be made equal.
    /// </summary>
    private static string? WhyNoMerge(ApproachInfo insert, TableDescription table)
    {
        if (table.PrimaryKey.Count == 0)
        {
            return $"{insert.Name} merges by primary key, and {table.QualifiedName} has none";
        }

        var always = table.Columns.FirstOrDefault(c => c.Identity == "a" && !table.PrimaryKey.Contains(c.Name));
        return always is null
            ? null
            : $"{insert.Name} cannot update {table.QualifiedName}'s column {TableDescription.Quote(always.Name)} to the source's value: " +
              "it is GENERATED ALWAYS AS IDENTITY outside the primary key, which UPDATE sets only to DEFAULT";
    }
}
