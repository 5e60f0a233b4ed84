using System.Net;
using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Doing nothing never verifies: the runner plants a sentinel row before every run and checks the target itself
/// afterwards, so a SomeService that answers "succeeded, verified" without writing a row comes out failed.
/// </summary>
[Trait("Tier", "Engine")]
public sealed class RunnerVerificationTests
{
    [Fact]
    public async Task A_SomeService_that_reports_success_without_writing_comes_out_failed()
    {
        await using var postgres = await LocalPostgres.StartAsync();
        var baseConnection = postgres.ConnectionString("postgres");
        // Whatever the runner seeds, the liar claims the target now equals the source.
        using var liar = new LyingSomeService(async () => await Lab.ReadChecksumAsync(postgres.ConnectionString(Lab.SourceDatabase)));
        var output = Directory.CreateTempSubdirectory("syncdata-liar-test-");
        try
        {
            var (exitCode, console) = await BenchCommandTests.RunAsync([
                "--connection", baseConnection, "--someservice-url", liar.Url, "--source-url", liar.Url,
                "--rows", "200", "--repeat", "1", "--max-repeat", "1", "--max-warmup", "1", "--cases", "NpgsqlCopy:NpgsqlCopy", "--no-peers", "--no-charts", "--out", output.FullName]);

            Assert.True(liar.Syncs >= 2, $"the runner never asked the fake SomeService to sync:\n{console}");
            Assert.True(exitCode == 1, $"exit code {exitCode}, expected 1 (a run failed):\n{console}");
            using var json = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(output.FullName, "results.json")));
            Assert.False(json.RootElement.GetProperty("passed").GetBoolean());
            var runs = json.RootElement.GetProperty("runs").EnumerateArray().ToList();
            Assert.NotEmpty(runs);
            Assert.All(runs, run =>
            {
                Assert.True(run.GetProperty("result").GetProperty("verified").GetBoolean()); // what the liar said
                Assert.False(run.GetProperty("runnerVerified").GetBoolean());                // what the runner found
                Assert.Contains("runner finds the target different", run.GetProperty("error").GetString());
                Assert.Equal(1, run.GetProperty("runnerTarget").GetProperty("rows").GetInt64()); // the sentinel row only
            });
        }
        finally
        {
            output.Delete(recursive: true);
        }
    }

    /// <summary>Answers every /sync with "succeeded, verified, target = source" and writes nothing.</summary>
    private sealed class LyingSomeService : IDisposable
    {
        private readonly HttpListener _listener = new();
        private readonly Func<Task<TableChecksum>> _sourceSummary;
        private int _syncs;

        public LyingSomeService(Func<Task<TableChecksum>> sourceSummary)
        {
            _sourceSummary = sourceSummary;
            var port = LocalPostgres.FreePort();
            Url = $"http://127.0.0.1:{port}/";
            _listener.Prefixes.Add(Url);
            _listener.Start();
            _ = Task.Run(ServeAsync);
        }

        public string Url { get; }
        public int Syncs => _syncs;

        private async Task ServeAsync()
        {
            while (_listener.IsListening)
            {
                HttpListenerContext context;
                try
                {
                    context = await _listener.GetContextAsync();
                }
                catch (Exception ex) when (ex is HttpListenerException or ObjectDisposedException)
                {
                    return;
                }

                var body = "{}";
                if (context.Request.Url!.AbsolutePath == "/sync")
                {
                    Interlocked.Increment(ref _syncs);
                    var summary = await _sourceSummary();
                    body = JsonSerializer.Serialize(new RunResult
                    {
                        Id = Guid.CreateVersion7(), Fetch = context.Request.QueryString["f"]!, Insert = context.Request.QueryString["i"]!,
                        Status = RunStatus.Succeeded, Verified = true, Rows = summary.Rows, StartedAt = DateTimeOffset.UtcNow,
                        DurationMs = 1, Source = summary, Target = summary,
                    }, SyncJsonContext.Default.RunResult);
                }

                var bytes = System.Text.Encoding.UTF8.GetBytes(body);
                context.Response.ContentType = "application/json";
                await context.Response.OutputStream.WriteAsync(bytes);
                context.Response.Close();
            }
        }

        public void Dispose() => _listener.Close();
    }
}
