namespace SyncData.Shared;

/// <summary>
/// NpgsqlReplication's routes: its stream, the acknowledgement and the slot's removal, under the table's name as every
/// source route (<see cref="SourceRoutes.InTable"/>). Following is a part of its own (SyncDataSource/Replication,
/// SomeService/Follow), not a fetch: it answers no run, so the fetch catalogue does not list it.
/// </summary>
public static class ReplicationRoutes
{
    /// <summary>GET ?slot=&amp;from=&amp;publication=: the stream of changes (a first copy when no from), newline-delimited <see cref="ChangeFrame"/>s.</summary>
    public const string Stream = "users/replication";

    /// <summary>The query parameter naming the replication slot (and its publication, of the same name).</summary>
    public const string Slot = "slot";

    /// <summary>
    /// The query parameter naming a publication the source's owner made (a user's, --follow-publication): the stream
    /// decodes through it and creates only the slot; absent, a publication of the slot's name is made for the table and
    /// dropped with the slot. Its name takes the letters a slot name takes (<see cref="IsSlotName"/>).
    /// </summary>
    public const string Publication = "publication";

    /// <summary>The stream's query parameter: the LSN the target has committed; absent, the slot is created anew and a first copy is sent.</summary>
    public const string From = "from";

    /// <summary>POST ?slot=&amp;lsn=: SomeService has committed everything up to this LSN; the only LSN confirmed to PostgreSQL.</summary>
    public const string Ack = "users/replication/ack";

    /// <summary>DELETE ?slot=: drops the slot and its publication (a forgotten slot keeps WAL forever).</summary>
    public const string Drop = Stream;

    /// <summary>The slot names a caller may give: a PostgreSQL slot name is lower-case letters, digits and underscores, up to 63.</summary>
    public static bool IsSlotName(string? name) =>
        name is { Length: > 0 and <= 63 } && name.All(c => c is (>= 'a' and <= 'z') or (>= '0' and <= '9') or '_');

    /// <summary>The slot of a table when the caller names none.</summary>
    public static string DefaultSlot(string table) => $"syncdata_{table}";
}
