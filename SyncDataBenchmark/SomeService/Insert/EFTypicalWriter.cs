using Microsoft.EntityFrameworkCore;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>EFTypical: AddRange + SaveChanges per batch, change tracker cleared between batches.</summary>
[Approach(InsertApproach.EFTypical)]
public sealed class EFTypicalWriter : IRowWriter
{
    public bool UsesBatches => true;

    public async Task<long?> WriteAsync(IAsyncEnumerable<User> rows, WriteTarget target, CancellationToken ct)
    {
        // A context on the run's own connection, so its SaveChanges join the run's single transaction.
        var contextOptions = new DbContextOptionsBuilder<UsersDbContext>()
            .UseNpgsql(target.Connection, o => o.CommandTimeout(target.CommandTimeoutSeconds))
            .Options;
        await using var db = new UsersDbContext(contextOptions);
        await db.Database.UseTransactionAsync(target.Transaction, ct);

        long written = 0;
        await foreach (var batch in rows.Chunk(target.BatchSize).WithCancellation(ct))
        {
            db.Users.AddRange(batch);
            written += await db.SaveChangesAsync(ct);
            db.ChangeTracker.Clear();
        }

        return written;
    }
}
