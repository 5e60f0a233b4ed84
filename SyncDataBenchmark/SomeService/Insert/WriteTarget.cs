using Microsoft.EntityFrameworkCore;
using Npgsql;
using SyncData.Model;

namespace SomeService.Insert;

/// <summary>
/// Where a writer writes: the target's users table on <see cref="Connection"/>, inside <see cref="Transaction"/>,
/// which the runner commits only after verification (or rolls back).
/// </summary>
public sealed record WriteTarget(NpgsqlConnection Connection, NpgsqlTransaction Transaction, int BatchSize, int CommandTimeoutSeconds)
{
    /// <summary>
    /// An EF context on the run's own connection, enlisted in the run's transaction: whatever the EF-based writers do
    /// (SaveChanges, a library's COPY on the context's connection) is inside that transaction, and EF never begins one
    /// of its own on this connection.
    /// </summary>
    public async Task<UsersDbContext> OpenDbContextAsync(CancellationToken ct)
    {
        var options = new DbContextOptionsBuilder<UsersDbContext>()
            .UseNpgsql(Connection, o => o.CommandTimeout(CommandTimeoutSeconds))
            .Options;
        var db = new UsersDbContext(options);
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
