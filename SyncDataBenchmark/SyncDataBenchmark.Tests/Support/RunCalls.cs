using System.Diagnostics;
using System.Text.Json;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The two calls every lab test makes of SomeService, written once: a run triggered and waited for, and a run polled
/// until it leaves "running"; <c>output</c> is what the test adds to a failure (the service's recent output).
/// </summary>
public static class RunCalls
{
    /// <summary>Triggers a run and waits for it; fails the test on anything but 200.</summary>
    public static async Task<RunResult> SyncAsync(SomeServiceClient api, string fetch, string insert, Func<string>? output = null,
        int? pageSize = null, int? batchSize = null, string? compression = null)
    {
        using var response = await api.TriggerAsync(fetch, insert, pageSize, batchSize, wait: true, compression: compression);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{fetch} × {insert} answered {(int)response.StatusCode}: {body}{Tail(output)}");
        return JsonSerializer.Deserialize(body, SyncJsonContext.Default.RunResult)!;
    }

    /// <summary>Polls run <paramref name="id"/> until it leaves "running"; fails the test past <paramref name="timeout"/>.</summary>
    public static async Task<RunResult> WaitFinishedAsync(SomeServiceClient api, Guid id, TimeSpan timeout, Func<string>? output = null)
    {
        for (var waited = Stopwatch.StartNew(); ; await Task.Delay(100))
        {
            var run = await api.GetRunAsync(id) ?? throw new InvalidOperationException($"SomeService knows no run {id}.");
            if (run.Status != RunStatus.Running)
            {
                return run;
            }

            Assert.True(waited.Elapsed < timeout, $"Run {id} still running after {timeout}.{Tail(output)}");
        }
    }

    private static string Tail(Func<string>? output) => output is null ? "" : "\n" + output();
}
