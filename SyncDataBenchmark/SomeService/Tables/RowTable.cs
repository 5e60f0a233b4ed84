using System.Text.Json.Serialization.Metadata;
using Apache.Arrow;
using Microsoft.EntityFrameworkCore;
using Npgsql;
using SomeService.Fetch;
using SomeService.Insert;
using SyncData.Model;
using SyncData.Postgres;

namespace SomeService.Tables;

/// <summary>
/// A table's rows as SomeService reads and writes them, the one place per table that knows its row type's columns:
/// the JSON metadata (the JSON fetches), the key the keyset fetch pages after, the binary COPY row (the COPY fetch's
/// decoder, the COPY writers' importer calls, each column with its NpgsqlDbType), the GrpcStream call's messages. The consumers and writers are written
/// once over <typeparamref name="TRow"/>; a new fetch or wire format adds its mapping here.
/// </summary>
public abstract class RowTable<TRow> : IRowTable
    where TRow : class
{
    public abstract SyncTable Table { get; }

    public TResult Accept<TResult>(IRowTableVisitor<TResult> visitor) => visitor.Visit(this);

    public abstract JsonTypeInfo<TRow> Json { get; }

    /// <summary>The row's key as the keyset fetch's "after" carries it.</summary>
    public abstract string KeyOf(TRow row);

    /// <summary>A decoder of this table's binary COPY rows (<see cref="SyncTable.Columns"/> order), fed as bytes arrive.</summary>
    public abstract CopyRowDecoder<TRow> NewCopyDecoder();

    /// <summary>The table's GrpcStream call and how its messages become rows.</summary>
    public abstract IGrpcStreamRows<TRow> GrpcStream { get; }

    /// <summary>How an ArrowStream schema that arrived differs from this table's, or null when it does not.</summary>
    public abstract string? ArrowMismatch(Schema received);

    /// <summary>An ArrowStream record batch (its schema checked) as rows, each value the row cannot hold refused by row, column and value.</summary>
    public abstract IEnumerable<TRow> ArrowRows(RecordBatch batch);

    public abstract ArrowCopyColumns ArrowCopy { get; }

    /// <summary>Writes one row into a binary COPY of <see cref="SyncTable.Columns"/>: StartRow and every column, each with its PostgreSQL type.</summary>
    public abstract void Write(NpgsqlBinaryImporter importer, TRow row);

    /// <summary>
    /// The EF context that maps <typeparamref name="TRow"/>, on <paramref name="connection"/> (the EF-based writers'
    /// <see cref="WriteTarget.OpenDbContextAsync"/>): the built-in tables' <see cref="SyncDbContext"/>, its enum mapped as
    /// on the service's data source; a generated table overrides it with its own.
    /// </summary>
    public virtual DbContext NewDbContext(NpgsqlConnection connection, int commandTimeoutSeconds) =>
        new SyncDbContext(new DbContextOptionsBuilder<SyncDbContext>()
            .UseNpgsql(connection, o => SyncDbContext.MapTypes(o.CommandTimeout(commandTimeoutSeconds)))
            .Options);

    /// <summary>The data source the run's connection comes from when it is not the service's target: one whose types are mapped for this table.</summary>
    public virtual NpgsqlDataSource? DataSource => null;
}
