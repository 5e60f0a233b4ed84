using Npgsql;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The AppHost's PostgreSQL as the AppHost starts it (scripts/aspire/postgres.sh, its data directory and port, a small
/// SEED_ROWS), without the AppHost (whose tests are the Engine tier's): it runs with wal_level=logical, so
/// NpgsqlReplication can follow there (issue 62: it ran PostgreSQL's default, replica, and every follower failed).
/// </summary>
[Trait("Tier", "Lab")]
public sealed class AspirePostgresTests
{
    [Fact]
    public async Task The_apphosts_postgres_decodes_logically()
    {
        var data = Directory.CreateTempSubdirectory("syncdata-aspire-pg-");
        var port = LocalPostgres.FreePort();
        try
        {
            await using var server = ChildProcess.Start("bash", [Path.Combine(Lab.RepositoryRoot, "scripts", "aspire", "postgres.sh"), data.FullName, $"{port}"],
                new ChildProcessOptions { Environment = new Dictionary<string, string?> { ["SEED_ROWS"] = "10" } });
            var source = new NpgsqlConnectionStringBuilder { Host = "127.0.0.1", Port = port, Username = "postgres", Database = Lab.SourceDatabase, Timeout = 2 }.ConnectionString;
            // A safety net, not a threshold: initdb and the seed come first.
            var until = DateTime.UtcNow + TimeSpan.FromMinutes(3);
            object? level = null;
            while (level is null)
            {
                Assert.False(server.HasExited, $"postgres.sh exited:\n{server.RecentOutput}");
                Assert.True(DateTime.UtcNow < until, $"no server on {port}:\n{server.RecentOutput}");
                try
                {
                    level = await Lab.ScalarAsync(source, "show wal_level");
                }
                catch (NpgsqlException)
                {
                    await Task.Delay(500);
                }
            }

            Assert.Equal("logical", level);
            // As the AppHost stops it: SIGTERM, a fast shutdown.
            await server.SignalAsync("TERM");
            using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(1));
            Assert.Equal(0, await server.WaitForExitAsync(stop.Token));
        }
        finally
        {
            data.Delete(recursive: true);
        }
    }
}
