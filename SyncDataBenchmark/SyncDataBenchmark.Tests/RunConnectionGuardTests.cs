using Microsoft.EntityFrameworkCore;
using Npgsql;
using SomeService.Sync;
using SomeService.Tables;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// EF Core on a run's connection whose backend ended: after one failed operation EF drops the run's transaction and,
/// unguarded, its next SaveChanges opens the connection itself and commits the row outside the run's transaction.
/// Guarded (<see cref="RunConnectionGuard"/>, as every run's connection is), every later operation fails and nothing is written.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class RunConnectionGuardTests(InProcessLab lab)
{
    [Fact]
    public async Task After_its_backend_ended_EF_writes_nothing_on_a_runs_connection()
    {
        await using var connection = new NpgsqlConnection(lab.TargetDb);
        await connection.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        RunConnectionGuard.RefuseReopening(connection);
        await using var db = UsersRowTable.Instance.NewDbContext(connection, 30);
        await db.Database.UseTransactionAsync(transaction);
        var none = new List<Guid> { Guid.NewGuid() };
        await db.Set<User>().Where(u => none.Contains(u.Id)).ToListAsync();

        // As an operator or a failover would (waiting until the backend is gone).
        Assert.Equal(true, await Lab.ScalarAsync(lab.TargetDb, "select pg_terminate_backend($1, 10000)", [connection.ProcessID]));
        Assert.NotNull(await Record.ExceptionAsync(() => db.Set<User>().Where(u => none.Contains(u.Id)).ToListAsync()));
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            var id = Guid.CreateVersion7();
            db.Add(new User { Id = id, Name = "After", Patronymic = "the", Surname = "break", CreatedAt = new DateTime(2025, 1, 1), IsActive = true });
            var error = await Record.ExceptionAsync(() => db.SaveChangesAsync());
            db.ChangeTracker.Clear();
            Assert.True(error is not null, $"SaveChanges {attempt} after the break succeeded");
            Assert.Equal(0L, await Lab.ScalarAsync(lab.TargetDb, "select count(*) from users where id = $1::text::uuid", [id.ToString()]));
        }
    }
}
