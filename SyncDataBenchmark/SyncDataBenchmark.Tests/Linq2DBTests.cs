using System.Diagnostics;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;
using SomeService;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// What linq2db does on its own that the other writers do explicitly: the statements it sends (README, "Linq2DB"), and
/// its timeout, which it does not take from the connection: without BulkCopyTimeout its bulk statements never time out.
/// Atomicity and verification are the same as every writer's (FaultTests and MatrixTests enumerate every insert).
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class Linq2DBTests(InProcessLab lab, ITestOutputHelper output)
{
    private const int CommandTimeoutSeconds = 2;

    /// <summary>
    /// How long the trigger holds the first write: far beyond what a passing run takes even on a busy machine, so the
    /// bounds below can be generous and a write that waits out the stall still fails them. Linq2DBCopy's two cases last
    /// it whole (their runs end within the bound; the rest is spent after, as the abandoned COPY ends).
    /// </summary>
    private const int StallSeconds = 16;

    /// <summary>
    /// A bounded run ends within this (it takes a few seconds; this is seven times the command timeout); an unbounded one lasts
    /// the whole stall, and then, its write done, does not fail or cancel at all.
    /// </summary>
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(14);

    /// <summary>How long to wait for a state the test needs before it acts: a limit for a hang, not a measurement.</summary>
    private static readonly TimeSpan StateWait = TimeSpan.FromSeconds(60);

    public static TheoryData<string> Linq2DBInserts() => new(ApproachRegistry.Catalog.Inserts.Select(i => i.Name).Where(n => n.StartsWith("Linq2DB", StringComparison.Ordinal)));

    [Theory]
    [MemberData(nameof(Linq2DBInserts))]
    public async Task A_stalled_write_fails_within_the_run_command_timeout_and_the_target_is_untouched(string insert)
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        var before = await Lab.ReadChecksumAsync(lab.TargetDb);
        await using var stall = await StallFirstInsertAsync();
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source, new Dictionary<string, string?> { ["Sync:DatabaseCommandTimeoutSeconds"] = $"{CommandTimeoutSeconds}" });

        var clock = Stopwatch.StartNew();
        var run = await InProcessLab.SyncAsync(someService.CreateClient(), "NpgsqlCopy", insert);

        Assert.True(run.Status == RunStatus.Failed, $"{insert}: {run.Status} after {clock.Elapsed.TotalSeconds:0.0} s: the stalled write was not bounded");
        Assert.True(clock.Elapsed < Bound, $"{insert} failed only after {clock.Elapsed.TotalSeconds:0.0} s");
        Assert.Contains("Writing to SomeService's database failed", run.Error);
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
    }

    [Theory]
    [MemberData(nameof(Linq2DBInserts))]
    public async Task A_run_cancelled_while_linq2db_waits_on_the_target_is_rolled_back(string insert)
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        var before = await Lab.ReadChecksumAsync(lab.TargetDb);
        await using var stall = await StallFirstInsertAsync();
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source);
        var api = new SomeServiceClient(someService.CreateClient());
        using var handed = new RowsHandedToWriters(someService.Services.GetRequiredService<IMeterFactory>());

        using var started = await api.TriggerAsync("NpgsqlCopy", insert);
        var run = (await System.Text.Json.JsonSerializer.DeserializeAsync(await started.Content.ReadAsStreamAsync(), SyncJsonContext.Default.RunResult))!;
        var statement = await WaitForSleepingTargetAsync();
        // The cancel must land while linq2db awaits the server. One that lands between its buffered writes finds no
        // statement in flight to cancel, and Npgsql's importer, disposed unfinished, waits for the server's answer to
        // CopyFail: the run ends Cancelled, but only after the stall. A multi-row INSERT sleeps once it is sent whole;
        // a COPY sleeps before it reads its rows, so wait until the writer has taken the last row (then it awaits the end).
        if (statement.StartsWith("COPY", StringComparison.OrdinalIgnoreCase))
        {
            await handed.WaitForAsync(InProcessLab.Rows, StateWait);
        }

        var clock = Stopwatch.StartNew();
        using (await api.CancelAsync(run.Id))
        {
        }

        var finished = await WaitFinishedAsync(api, run.Id);
        Assert.True(finished.Status == RunStatus.Cancelled, $"{insert}: {finished.Status}: {finished.Error}");
        Assert.True(clock.Elapsed < Bound, $"{insert} stopped only after {clock.Elapsed.TotalSeconds:0.0} s");
        Assert.Equal(before, await Lab.ReadChecksumAsync(lab.TargetDb));
    }

    [Fact]
    public async Task Linq2DB_sends_one_multi_row_INSERT_per_thousand_rows_and_Linq2DBCopy_none()
    {
        await using var source = lab.Source();
        await using var someService = lab.SomeService(source);
        var client = someService.CreateClient();

        var inserts = new Dictionary<string, int>();
        var copies = new Dictionary<string, int>();
        foreach (var insert in new[] { "Linq2DB", "Linq2DBCopy" })
        {
            await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
            var statements = await CountStatementsAsync(async () =>
            {
                var run = await InProcessLab.SyncAsync(client, "NpgsqlCopy", insert);
                Assert.True(run is { Status: RunStatus.Succeeded, Verified: true }, $"{insert}: {run.Status}: {run.Error}");
            });
            inserts[insert] = statements.Count(s => s.StartsWith("INSERT INTO users", StringComparison.OrdinalIgnoreCase));
            copies[insert] = statements.Count(s => s.StartsWith("COPY users", StringComparison.OrdinalIgnoreCase) && s.Contains("FROM STDIN", StringComparison.OrdinalIgnoreCase));
            output.WriteLine($"{insert}: {inserts[insert]} INSERT and {copies[insert]} COPY FROM statements into users for {InProcessLab.Rows:N0} rows; all statements:\n  " +
                             string.Join("\n  ", statements.Select(s => s.Length > 100 ? s[..100] + "…" : s)));
        }

        // linq2db's default for PostgreSQL is BulkCopyType.MultipleRows, capped at 1,000 rows per statement (MaxBatchSize
        // unset); ProviderSpecific is one binary COPY per 10,000 rows.
        Assert.Equal(((int)Math.Ceiling(InProcessLab.Rows / 1000.0), 0), (inserts["Linq2DB"], copies["Linq2DB"]));
        Assert.Equal((0, (int)Math.Ceiling(InProcessLab.Rows / 10000.0)), (inserts["Linq2DBCopy"], copies["Linq2DBCopy"]));
    }

    /// <summary>
    /// Every command Npgsql executed in this process meanwhile against the lab's cluster (its own ActivitySource, as
    /// OpenTelemetry reads it). By the server's port: the listener hears the whole process, and a lab running beside
    /// this one (two collections at a time) once added its COPY to the count.
    /// </summary>
    private async Task<List<string>> CountStatementsAsync(Func<Task> action)
    {
        var port = lab.Postgres.Port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var statements = new List<string>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = s => s.Name == "Npgsql",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = a =>
            {
                if (Convert.ToString(a.GetTagItem("server.port"), System.Globalization.CultureInfo.InvariantCulture) != port)
                {
                    return;
                }

                lock (statements)
                {
                    statements.Add((a.GetTagItem("db.query.text") ?? a.GetTagItem("db.statement") ?? a.DisplayName)?.ToString()?.TrimStart() ?? "");
                }
            },
        };
        ActivitySource.AddActivityListener(listener);
        await action();
        lock (statements)
        {
            return [.. statements];
        }
    }

    /// <summary>
    /// A statement trigger that holds the run's first write into users (a reload's first INSERT or COPY, a merge's first
    /// MERGE) for <see cref="StallSeconds"/>: once per transaction, marked in a setting local to it.
    /// </summary>
    private async Task<IAsyncDisposable> StallFirstInsertAsync()
    {
        await Lab.ScalarAsync(lab.TargetDb, $"""
            create function stall_first_insert() returns trigger language plpgsql as $$
            begin
              if current_setting('lab.stalled', true) is distinct from 'yes' then
                perform set_config('lab.stalled', 'yes', true);
                perform pg_sleep({StallSeconds});
              end if;
              return null;
            end $$;
            create trigger stall_first_insert before insert or update on users for each statement execute function stall_first_insert()
            """);
        return new Cleanup(() => Lab.ScalarAsync(lab.TargetDb, "drop function stall_first_insert() cascade"));
    }

    /// <summary>Waits until the target's write sleeps in the trigger; returns its statement.</summary>
    private async Task<string> WaitForSleepingTargetAsync()
    {
        for (var waited = Stopwatch.StartNew(); waited.Elapsed < StateWait; await Task.Delay(50))
        {
            await using var connection = new NpgsqlConnection(lab.TargetDb);
            await connection.OpenAsync();
            await using var command = new NpgsqlCommand("select query from pg_stat_activity where wait_event = 'PgSleep' and datname = current_database() limit 1", connection);
            if (await command.ExecuteScalarAsync() is string statement)
            {
                return statement.TrimStart();
            }
        }

        Assert.Fail("the target's write never reached the stalling trigger");
        return "";
    }

    /// <summary>Waits past the stall, so a run that waited it out is reported by the bound's assertion, with its time.</summary>
    private static Task<RunResult> WaitFinishedAsync(SomeServiceClient api, Guid id) =>
        RunCalls.WaitFinishedAsync(api, id, TimeSpan.FromSeconds(StallSeconds + 30));

    private sealed class Cleanup(Func<Task> action) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync() => await action();
    }
}
