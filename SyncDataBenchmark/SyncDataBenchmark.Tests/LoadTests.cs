using System.Net;
using System.Net.Http.Json;
using Npgsql;
using SomeService.Fetch;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>One run at a time, however many triggers arrive at once.</summary>
[Collection(FaultCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ConcurrentTriggerTests(FaultLab lab)
{
    [Fact]
    public async Task Hundred_concurrent_triggers_start_exactly_one_run()
    {
        await lab.CancelLeftoverRunsAsync();
        using var gate = new SemaphoreSlim(0);
        var triggers = Enumerable.Range(0, 100).Select(async _ =>
        {
            await gate.WaitAsync();
            using var response = await lab.Api.TriggerAsync("EFKeysetPaging", "EFTypical");
            return (response.StatusCode, Body: await response.Content.ReadAsStringAsync());
        }).ToArray();
        gate.Release(100);
        var answers = await Task.WhenAll(triggers);

        var accepted = Assert.Single(answers, a => a.StatusCode == HttpStatusCode.Accepted);
        Assert.Equal(99, answers.Count(a => a.StatusCode == HttpStatusCode.Conflict));
        Assert.All(answers.Where(a => a.StatusCode == HttpStatusCode.Conflict), a => Assert.Contains("already in progress", a.Body));

        var run = System.Text.Json.JsonSerializer.Deserialize(accepted.Body, SyncJsonContext.Default.RunResult)!;
        using (var cancel = await lab.Api.CancelAsync(run.Id))
        {
            Assert.Equal(HttpStatusCode.Accepted, cancel.StatusCode);
        }

        Assert.Equal(RunStatus.Cancelled, (await lab.WaitFinishedAsync(run.Id, TimeSpan.FromSeconds(30))).Status);
        var next = await lab.SyncAsync("NpgsqlCopy", "NpgsqlCopy");
        Assert.True(next.Verified, next.Error);
    }
}

/// <summary>The source serves many consumers at once, each a complete and correct copy.</summary>
[Collection(MatrixCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ConcurrentReaderTests(MatrixLab lab)
{
    private const int Readers = 20;

    [Theory]
    [MemberData(nameof(Consumers.FetchNames), MemberType = typeof(Consumers))]
    public async Task Twenty_concurrent_readers_each_get_every_row(string fetch)
    {
        var expected = await ReadIdsAsync(lab.SourceDb);

        var readers = Enumerable.Range(0, Readers).Select(_ => Task.Run(() => ReadAllAsync(fetch))).ToArray();
        var results = await Task.WhenAll(readers);

        Assert.All(results, ids => Assert.Equal(expected, ids.Order().ToList()));
    }

    // Each reader is SomeService's own consumer of the fetch, exactly as a run reads it.
    private async Task<List<Guid>> ReadAllAsync(string fetch)
    {
        var ids = new List<Guid>();
        await foreach (var user in Consumers.Read(fetch, lab.SourceClient))
        {
            ids.Add(user.Id);
        }

        return ids;
    }

    private static async Task<List<Guid>> ReadIdsAsync(string connectionString)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand("select id from users", connection);
        await using var reader = await command.ExecuteReaderAsync();
        var ids = new List<Guid>();
        while (await reader.ReadAsync())
        {
            ids.Add(reader.GetGuid(0));
        }

        return ids.Order().ToList();
    }
}
