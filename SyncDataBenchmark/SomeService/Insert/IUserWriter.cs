using Microsoft.EntityFrameworkCore;
using Npgsql;
using SyncData.Model;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// The write half of a run. Each approach is one class that declares its own name; <see cref="ApproachRegistry"/>
/// finds them by enumeration, so adding an approach adds one file. A writer knows nothing of sources:
/// it consumes rows (<see cref="IRowWriter"/>) or PostgreSQL binary COPY bytes (<see cref="ICopyBytesWriter"/>, declared
/// with CopyBytes = true), and declares whether the batch size means anything to it (Batches = true). This is only the
/// common base the registry finds them by: a writer implements exactly one of the two (ApproachRegistry refuses any other).
/// </summary>
public interface IUserWriter
{
}

/// <summary>A writer fed with rows as they arrive, whatever the fetch approach.</summary>
public interface IRowWriter : IUserWriter
{
    /// <returns>Rows written, or null when the approach cannot count them (the verification counts anyway).</returns>
    Task<long?> WriteAsync(IAsyncEnumerable<User> rows, WriteTarget target, CancellationToken ct);
}

/// <summary>A writer fed with the source's binary COPY body, byte for byte; runs only with a fetch that delivers one.</summary>
public interface ICopyBytesWriter : IUserWriter
{
    /// <returns>Rows written, or null when the approach cannot count them.</returns>
    Task<long?> WriteAsync(Stream binaryCopy, WriteTarget target, CancellationToken ct);
}

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
