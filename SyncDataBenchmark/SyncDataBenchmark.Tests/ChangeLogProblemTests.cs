using System.Net;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncData.Shared.Fetches;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The change routes' failures a caller must act on, as a new user meets them, in process over scratch databases of
/// the in-process lab's cluster: a watermark the log can no longer answer for (the source truncated and seeded again
/// after the target's last sync) is a 409 saying a full sync must run, never a 503 "retry" or a 500; a source set up
/// without the change log is a 501 naming the script that installs it; and a change sync's run error says the same.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeLogProblemTests(InProcessLab lab)
{
    private static IEnumerable<string> ChangeRoutes(SyncTable table) =>
        new[] { ApproachInfo.RouteOf(typeof(EFStreamChangesFetch)), ApproachInfo.RouteOf(typeof(NpgsqlCopyChangesFetch)), SourceRoutes.Deleted }
            .Select(route => SourceRoutes.InTable(route, table.Name));

    [Fact]
    public async Task A_watermark_from_before_a_truncate_is_a_409_saying_run_a_full_sync_and_a_full_sync_mends_it()
    {
        var sourceDb = await ScratchDatabase.RecreateAsync(lab.Postgres, "stale_watermark_source");
        var targetDb = await ScratchDatabase.RecreateAsync(lab.Postgres, "stale_watermark_target");
        await SqlScripts.ApplyChangeTrackingAsync(sourceDb);
        await SqlScripts.SeedAsync(sourceDb, 200);
        await using var pair = Pair(sourceDb, targetDb);

        await Lab.MakeTargetDifferAsync(targetDb, await Lab.ReadChecksumAsync(sourceDb));
        Assert.True((await pair.SyncAsync("NpgsqlCopy", "NpgsqlCopy")).Verified);
        var watermark = (string)(await Lab.ScalarAsync(targetDb, "select snapshot::text from sync_watermarks where table_name = 'users'"))!;
        await SqlScripts.SeedAsync(sourceDb, 150); // seed_users truncates first: the log cannot name what went

        foreach (var route in ChangeRoutes(SyncTable.Users))
        {
            var (status, detail) = await pair.GetProblemAsync(SourceRoutes.ChangedSince(route, watermark));
            Assert.True(status == HttpStatusCode.Conflict, $"GET /{route}: {(int)status} {detail}");
            Assert.Contains("users was truncated after the watermark", detail);
            Assert.Contains("run a full sync", detail);
        }

        foreach (var insert in new[] { "NpgsqlCopyMerge", "EFMerge" })
        {
            var failed = await pair.SyncAsync(insert == "EFMerge" ? "EFStreamChanges" : "NpgsqlCopyChanges", insert);
            Assert.Equal(RunStatus.Failed, failed.Status);
            Assert.Contains("409 Conflict", failed.Error);
            Assert.Contains("run a full sync", failed.Error);
            // The status as SourceClient names it: a bare "503" also matched a watermark such as 5037:5037: in the URL.
            Assert.DoesNotContain("503 Service Unavailable", failed.Error);
            Assert.DoesNotContain("retry once it is back", failed.Error);
        }

        Assert.True((await pair.SyncAsync("NpgsqlCopy", "NpgsqlCopy")).Verified);
        await SqlScripts.SeedAsync(sourceDb, 150); // truncated again, after the new watermark this time: still refused
        Assert.Equal(RunStatus.Failed, (await pair.SyncAsync("NpgsqlCopyChanges", "NpgsqlCopyMerge")).Status);
        Assert.True((await pair.SyncAsync("NpgsqlCopy", "NpgsqlCopy")).Verified);
        await Lab.ScalarAsync(sourceDb, "update users set name = name || '!' where id in (select id from users order by id limit 5)");
        var changed = await pair.SyncAsync("NpgsqlCopyChanges", "NpgsqlCopyMerge");
        Assert.True(changed.Verified, changed.Error);
        Assert.Equal(await Lab.ReadChecksumAsync(sourceDb), await Lab.ReadChecksumAsync(targetDb));
    }

    [Fact]
    public async Task A_source_without_the_change_log_answers_501_naming_the_script_that_installs_it()
    {
        // What docs/running.md's manual set-up used to leave: the tables and rows, no change log.
        var sourceDb = await ScratchDatabase.RecreateAsync(lab.Postgres, "no_change_log_source");
        var targetDb = await ScratchDatabase.RecreateAsync(lab.Postgres, "no_change_log_target");
        await SqlScripts.SeedAsync(sourceDb, 100);
        await using var pair = Pair(sourceDb, targetDb);
        var watermark = (string)(await Lab.ScalarAsync(sourceDb, "select pg_current_snapshot()::text"))!;

        foreach (var route in SyncTable.All.SelectMany(ChangeRoutes))
        {
            var (status, detail) = await pair.GetProblemAsync(SourceRoutes.ChangedSince(route, watermark));
            Assert.True(status == HttpStatusCode.NotImplemented, $"GET /{route}: {(int)status} {detail}");
            Assert.Contains("sql/change-tracking.sql", detail);
        }

        await Lab.MakeTargetDifferAsync(targetDb, await Lab.ReadChecksumAsync(sourceDb));
        Assert.True((await pair.SyncAsync("NpgsqlCopy", "NpgsqlCopy")).Verified);
        foreach (var fetch in new[] { "NpgsqlCopyChanges", "EFStreamChanges" })
        {
            var failed = await pair.SyncAsync(fetch, "NpgsqlCopyMerge");
            Assert.Equal(RunStatus.Failed, failed.Status);
            Assert.Contains("501", failed.Error);
            Assert.Contains("sql/change-tracking.sql", failed.Error);
        }
    }

    private InProcessPair Pair(string sourceDb, string targetDb) =>
        lab.Pair(new Dictionary<string, string?> { ["ConnectionStrings:Source"] = sourceDb }, new Dictionary<string, string?> { ["ConnectionStrings:Target"] = targetDb });
}
