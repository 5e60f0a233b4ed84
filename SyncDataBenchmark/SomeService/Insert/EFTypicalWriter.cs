using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Sync;
using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>EFTypical: AddRange + SaveChanges per batch, change tracker cleared between batches.</summary>
public sealed class EFTypicalWriter(IOptions<SyncOptions> options) : IUserWriter
{
    public bool UsesBatches => true;

    public async Task<long?> WriteAsync(IUserSource source, SyncRequest request, NpgsqlConnection connection, NpgsqlTransaction transaction, CancellationToken ct)
    {
        // A context on the run's own connection, so its SaveChanges join the run's single transaction.
        var contextOptions = new DbContextOptionsBuilder<UsersDbContext>()
            .UseNpgsql(connection, o => o.CommandTimeout(options.Value.DatabaseCommandTimeoutSeconds))
            .Options;
        await using var db = new UsersDbContext(contextOptions);
        await db.Database.UseTransactionAsync(transaction, ct);

        long written = 0;
        await foreach (var batch in source.ReadAsync(request, ct).Chunk(request.BatchSize).WithCancellation(ct))
        {
            db.Users.AddRange(batch);
            written += await db.SaveChangesAsync(ct);
            db.ChangeTracker.Clear();
        }

        return written;
    }
}
