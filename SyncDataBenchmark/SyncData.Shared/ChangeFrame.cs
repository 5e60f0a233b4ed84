using System.Text.Json.Serialization;

namespace SyncData.Shared;

/// <summary>
/// One line of NpgsqlReplication's stream (newline-delimited JSON). <see cref="Values"/> are the row's columns in the
/// table's COPY order (SyncTable.Columns), each as PostgreSQL's text output prints it (pgoutput's text mode, and the
/// first copy's column::text), null for SQL NULL; <see cref="Unchanged"/> names (by that order) the columns pgoutput
/// sent as 'u': an unchanged TOASTed value it did not send, which the target must keep. A commit frame also carries
/// <see cref="ReceivedAt"/>, when SyncDataSource received pgoutput's Commit message (its clock), and, once SomeService
/// read it off the stream, <see cref="ReadAt"/> (SomeService's clock, never on the wire): the stages of its lag.
/// </summary>
public sealed record ChangeFrame(
    string Op,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string?[]? Values = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] int[]? Unchanged = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Lsn = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] DateTimeOffset? CommittedAt = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Error = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] DateTimeOffset? ReceivedAt = null,
    [property: JsonIgnore] DateTimeOffset? ReadAt = null)
{
    /// <summary>A row of the first copy, read in the slot's exported snapshot.</summary>
    public const string Copy = "copy";

    /// <summary>The first copy is complete; <see cref="Lsn"/> is the slot's consistent point, where the changes start.</summary>
    public const string Copied = "copied";

    public const string Insert = "i";

    /// <summary>An update: the new row, with <see cref="Unchanged"/> columns to keep from the target's row.</summary>
    public const string Update = "u";

    /// <summary>A delete: the key column set, the others null.</summary>
    public const string Delete = "d";

    /// <summary>The end of a source transaction: <see cref="Lsn"/> its end LSN, <see cref="CommittedAt"/> its commit time.</summary>
    public const string Commit = "c";

    /// <summary>
    /// Nothing of this table's changed up to <see cref="Lsn"/> since the last commit sent: acknowledging it lets the slot
    /// advance on a database whose writes are all to other tables (else it would keep their WAL).
    /// </summary>
    public const string Heartbeat = "h";

    /// <summary>The source failed after the response began (its status is already 200): <see cref="Error"/> says why.</summary>
    public const string Failed = "error";

    /// <summary>
    /// The source's database went away mid-stream (a broken connection, a server shutting down or restarting): not a
    /// failure of the stream's own; opened again from the target's stored LSN once the database is back, it goes on.
    /// </summary>
    public const string Broken = "broken";
}
