using System.Net;
using System.Text.Json;
using Microsoft.Extensions.Options;
using SomeService.Fetch;
using SomeService.Sync;
using SomeService.Tables;
using SyncData.Postgres;
using SyncData.Shared;
using SyncData.Shared.Fetches;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// SyncDataSource's change routes over real HTTP: a watermark missing or not a snapshot is a 400 naming it (never a
/// server error, and never written into the COPY statement), and a request of a run reads the changes in the run's
/// snapshot, not what changed after the run began.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangeEndpointTests(ChangesLab lab)
{
    public static TheoryData<string?> BadWatermarks() => new()
    {
        null, "", "abc", "10:5:", "0:5:", "3:10:12", "3:10:7,5", "3:10:-4", "3:10:5,", "1:2:3:4", " 3:10:", "3:10:5;select 1",
        "'); drop table users; --", "99999999999999999999999:99999999999999999999999:",
    };

    /// <summary>Every change route of every table: the two change fetches' and the deleted keys'.</summary>
    private static IEnumerable<string> Routes =>
        SyncTable.All.SelectMany(t => new[] { ApproachInfo.RouteOf(typeof(EFStreamChangesFetch)), ApproachInfo.RouteOf(typeof(NpgsqlCopyChangesFetch)), SourceRoutes.Deleted }
            .Select(route => SourceRoutes.InTable(route, t.Name)));

    [Theory]
    [MemberData(nameof(BadWatermarks))]
    public async Task A_missing_or_malformed_watermark_is_a_400_naming_it(string? since)
    {
        foreach (var route in Routes)
        {
            using var response = await lab.SourceClient.GetAsync(since is null ? route : SourceRoutes.ChangedSince(route, since));
            var body = await response.Content.ReadAsStringAsync();
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"GET /{route} since={since}: {(int)response.StatusCode} {body}");
            using var problem = JsonDocument.Parse(body);
            Assert.Contains("since", problem.RootElement.GetProperty("errors").GetProperty(SourceRoutes.Since)[0].GetString()!);
        }

        // The same routes with a real watermark answer.
        var watermark = await lab.WatermarkAsync();
        foreach (var route in Routes)
        {
            using var response = await lab.SourceClient.GetAsync(SourceRoutes.ChangedSince(route, watermark));
            Assert.True(response.IsSuccessStatusCode, $"GET /{route} since={watermark}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        }
    }

    [Theory]
    [InlineData("EFStreamChanges")]
    [InlineData("NpgsqlCopyChanges")]
    public async Task A_request_of_a_run_reads_the_changes_in_the_runs_snapshot(string fetch)
    {
        var since = await lab.WatermarkAsync();
        await lab.ChangeAsync(SyncTable.Users, 0.05, 21); // before the run began: the run sees it
        var expectedRows = await lab.UserTextsAsync("select * from changed_users($1::pg_snapshot)", since);
        var expectedDeleted = await lab.TextsAsync("select key::text from deleted_users($1::pg_snapshot) as key", since);

        var client = new SourceClient(lab.SourceClient, Options.Create(new SyncOptions()));
        var id = Guid.NewGuid();
        await client.BeginRunAsync(id, CancellationToken.None);
        try
        {
            await lab.ChangeAsync(SyncTable.Users, 0.05, 22); // after it began: the run does not
            var run = lab.ChangesRun(fetch, SyncTable.Users, since, id);
            var rows = await ChangesLab.ReadAllAsync(fetch, run, UsersRowTable.Instance);
            Assert.Equal(expectedRows.Order(), rows.Select(ChangesLab.Text).Order());
            Assert.Equal(expectedDeleted.Order(), (await run.ReadDeletedKeysAsync(CancellationToken.None)).Order());

            // Read outside the run, the later change is there: the run's answer was its snapshot's, not the data's.
            var now = await ChangesLab.ReadAllAsync(fetch, lab.ChangesRun(fetch, SyncTable.Users, since), UsersRowTable.Instance);
            Assert.NotEqual(expectedRows.Order(), now.Select(ChangesLab.Text).Order());
        }
        finally
        {
            await client.EndRunAsync(id, CancellationToken.None);
        }
    }
}
