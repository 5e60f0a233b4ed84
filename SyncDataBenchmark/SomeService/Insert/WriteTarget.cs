using Microsoft.EntityFrameworkCore;
using Npgsql;
using SyncData.Model;
using SyncData.Postgres;

namespace SomeService.Insert;

/// <summary>
/// Where a writer writes: the target's <see cref="Table"/> on <see cref="Connection"/>, inside <see cref="Transaction"/>,
/// which the runner commits only after verification (or rolls back).
/// </summary>
public sealed record WriteTarget(SyncTable Table, NpgsqlConnection Connection, NpgsqlTransaction Transaction, int BatchSize, int CommandTimeoutSeconds)
{
    /// <summary>
    /// The EF context that maps the run's rows, on a connection with a command timeout: <see cref="SyncDbContext"/> for
    /// the built-in tables, the generated one for a described table (RowTable.NewDbContext).
    /// </summary>
    public Func<NpgsqlConnection, int, DbContext> NewDbContext { get; init; } = NewSyncDbContext;

    /// <summary>
    /// An EF context on the run's own connection, enlisted in the run's transaction: whatever the EF-based writers do
    /// (SaveChanges, a library's COPY on the context's connection) is inside that transaction, and EF never begins one
    /// of its own on this connection.
    /// </summary>
    public async Task<DbContext> OpenDbContextAsync(CancellationToken ct)
    {
        var db = NewDbContext(Connection, CommandTimeoutSeconds);
        try
        {
            await db.Database.UseTransactionAsync(Transaction, ct);
            return db;
        }
        catch
        {
            await db.DisposeAsync();
            throw;
        }
    }

    /// <summary>The built-in tables' context, its enum mapped as on the service's data source.</summary>
    public static DbContext NewSyncDbContext(NpgsqlConnection connection, int commandTimeoutSeconds) =>
        new SyncDbContext(new DbContextOptionsBuilder<SyncDbContext>()
            .UseNpgsql(connection, o => SyncDbContext.MapTypes(o.CommandTimeout(commandTimeoutSeconds)))
            .Options);
}
