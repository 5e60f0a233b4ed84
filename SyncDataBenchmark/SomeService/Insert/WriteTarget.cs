using Microsoft.EntityFrameworkCore;
using Npgsql;
using SomeService.Tables;
using SyncData.Postgres;

namespace SomeService.Insert;

/// <summary>
/// Where a writer writes: the target's <see cref="Table"/> on <see cref="Connection"/>, inside <see cref="Transaction"/>,
/// which the runner commits only after verification (or rolls back).
/// </summary>
public sealed record WriteTarget(SyncTable Table, NpgsqlConnection Connection, NpgsqlTransaction Transaction, int BatchSize, int CommandTimeoutSeconds)
{
    /// <summary>
    /// The EF context that maps <paramref name="table"/>'s rows (<see cref="RowTable{TRow}.NewDbContext"/>: the table
    /// says which, so no default here can disagree with it) on the run's own connection, enlisted in the run's
    /// transaction: whatever the EF-based writers do (SaveChanges, a library's COPY on the context's connection) is
    /// inside that transaction, and EF never begins one of its own on this connection.
    /// </summary>
    public async Task<DbContext> OpenDbContextAsync<TRow>(RowTable<TRow> table, CancellationToken ct)
        where TRow : class
    {
        var db = table.NewDbContext(Connection, CommandTimeoutSeconds);
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
}
