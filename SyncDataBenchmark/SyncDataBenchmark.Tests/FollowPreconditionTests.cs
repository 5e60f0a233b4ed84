using System.Net.Http.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// NpgsqlReplication on a server that cannot decode (wal_level=replica, PostgreSQL's default, as the AppHost's server
/// ran: issue 62): the follower must not sit in "copying" retrying with the error beside it, but report failed naming
/// the setting, and its slot-less stop must say so. Both services as processes over a cluster of the test's own.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class FollowPreconditionTests
{
    [Fact]
    public async Task A_follower_on_a_server_without_logical_decoding_reports_failed_naming_wal_level()
    {
        await using var postgres = await LocalPostgres.StartAsync(new Dictionary<string, string> { ["wal_level"] = "replica" });
        await postgres.CreateDatabaseAsync(Lab.SourceDatabase);
        await postgres.CreateDatabaseAsync(Lab.TargetDatabase);
        var (source, target) = (postgres.ConnectionString(Lab.SourceDatabase), postgres.ConnectionString(Lab.TargetDatabase));
        await Lab.PrepareDatabasesAsync(source, target, seedRows: 100);
        await using var services = await new StartedServices(new LabDatabases(source, target, new PeerPlacement(null, source, target)), null, RuntimeProfiles.Default)
            .StartAsync(_ => { }, CancellationToken.None);
        using var someService = services.CreateSomeServiceClient(TimeSpan.FromMinutes(1));

        using var started = await someService.PostAsync($"/{SyncRoutes.Follow}/users", null);
        var body = await started.Content.ReadAsStringAsync();
        FollowStatus? status = null;
        if ((int)started.StatusCode is >= 400 and < 500)
        {
            // Refused up front: the answer names the setting.
            Assert.Contains("wal_level", body, StringComparison.Ordinal);
            return;
        }

        // A safety net, not a threshold: a failed follower says so at once; one that retries would stay "copying".
        var until = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (status is not { State: FollowStatus.Failed })
        {
            Assert.True(DateTime.UtcNow < until, $"not failed within 30 s: {status}");
            await Task.Delay(200);
            status = await someService.GetFromJsonAsync($"/{SyncRoutes.Follow}/users", SyncJsonContext.Default.FollowStatus);
            Assert.True(status is { State: FollowStatus.Copying or FollowStatus.Failed }, $"{status}");
        }

        Assert.Contains("wal_level", status.Error, StringComparison.Ordinal);
        using var stopped = await someService.DeleteAsync($"/{SyncRoutes.Follow}/users");
        Assert.Contains(FollowStatus.Failed, await stopped.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}
