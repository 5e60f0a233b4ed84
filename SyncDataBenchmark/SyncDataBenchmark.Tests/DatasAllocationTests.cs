using System.Text.Json;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;
using Xunit.Abstractions;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Allocated bytes stay true under DATAS (README, "Measuring honestly"). A Server GC process with DATAS on
/// (SyncData.DatasProbe) is driven through heap-count changes by allocation bursts and trickles, measured by the
/// services' own RuntimeWindow; its workers count what they allocate themselves, per thread, exactly. Every figure
/// reported must hold that truth (never negative, never understated, not inflated by old heaps coming back), and
/// every window in which the heap count changed must report none, with the reason.
/// </summary>
[Trait("Tier", "Lab")]
public sealed class DatasAllocationTests(ITestOutputHelper output)
{
    /// <summary>What the window may count beyond the workers' own allocations: the runtime's, the sampling timer's, the GC event listener's.</summary>
    private const long OverheadBytes = 16L << 20;

    [Fact]
    public async Task Reported_allocations_never_drop_or_understate_while_DATAS_changes_the_heap_count()
    {
        // DATAS as ASP.NET Core's default gives it: Server GC (the probe's runtimeconfig), dynamic adaptation on.
        var (settings, windows) = await RunProbeAsync(RuntimeProfiles.DefaultName, 150);
        Assert.True(settings.GetProperty("Datas").GetBoolean(), "the probe must run Server GC with DATAS on");

        // The scenario must really move the heap count, or it proves nothing.
        var changedWindows = windows.Where(w => w.GetProperty("changes").GetInt64() != 0).ToList();
        Assert.True(changedWindows.Count > 0, "DATAS never changed the heap count: the scenario proved nothing.");

        foreach (var w in windows)
        {
            var truth = w.GetProperty("allocatedByWorkers").GetInt64();
            var reported = w.GetProperty("reported");
            var unavailable = w.GetProperty("unavailable");
            var label = $"window {w.GetProperty("window").GetInt32()} ({w.GetProperty("kind").GetString()}, heaps {w.GetProperty("heapCountStart")} → {w.GetProperty("heapCountEnd")}, raw difference {w.GetProperty("raw").GetInt64():N0})";
            if (reported.ValueKind == JsonValueKind.Null)
            {
                Assert.True(unavailable.ValueKind == JsonValueKind.String && unavailable.GetString()!.Length > 0, $"{label}: no figure and no reason");
                continue;
            }

            var bytes = reported.GetInt64();
            Assert.True(bytes >= truth, $"{label}: reported {bytes:N0} bytes, but the workers alone allocated {truth:N0}");
            Assert.True(bytes <= truth + OverheadBytes + truth / 50, $"{label}: reported {bytes:N0} bytes for {truth:N0} allocated: inflated");
            Assert.True(unavailable.ValueKind == JsonValueKind.Null, $"{label}: a figure and a reason at once");
        }

        foreach (var w in changedWindows)
        {
            Assert.True(w.GetProperty("reported").ValueKind == JsonValueKind.Null, $"window {w.GetProperty("window").GetInt32()}: the heap count changed, yet a figure was reported");
        }

        // And the guard is not simply "never report": windows with a steady heap count keep their figure.
        Assert.Contains(windows, w => w.GetProperty("kind").GetString() != "small" && w.GetProperty("reported").ValueKind == JsonValueKind.Number);
        AssertTickSums(windows, settings.GetProperty("HeapCount").GetInt64());
    }

    /// <summary>The tick sum needs no DATAS to be there: under the fixed-heap profiles it must be there too, and agree.</summary>
    [Theory]
    [InlineData("workstation")]
    [InlineData("tuned")]
    public async Task The_tick_sum_is_reported_and_agrees_under_the_fixed_heap_profiles(string profile)
    {
        var (settings, windows) = await RunProbeAsync(profile, 20);
        Assert.False(settings.GetProperty("Datas").GetBoolean(), $"{profile} must run without DATAS");
        Assert.All(windows, w => Assert.True(w.GetProperty("reported").ValueKind == JsonValueKind.Number, $"window {w.GetProperty("window")}: no exact figure under {profile}"));
        AssertTickSums(windows, settings.GetProperty("HeapCount").GetInt64());
    }

    /// <summary>
    /// A tick sum in every window, holding the workers' truth whatever the heap count did, and within the stated
    /// precision of GC.GetTotalAllocatedBytes wherever that one is reported (the cross-check).
    /// </summary>
    private void AssertTickSums(IReadOnlyList<JsonElement> windows, long heaps)
    {
        var crossChecked = 0;
        foreach (var w in windows)
        {
            var label = $"window {w.GetProperty("window").GetInt32()} ({w.GetProperty("kind").GetString()}, heaps {w.GetProperty("heapCountStart")} → {w.GetProperty("heapCountEnd")})";
            var ticked = w.GetProperty("ticked");
            Assert.True(ticked.ValueKind == JsonValueKind.Number, $"{label}: no tick sum ({w.GetProperty("tickUnavailable")})");
            var sum = ticked.GetInt64();
            var truth = w.GetProperty("allocatedByWorkers").GetInt64();
            var precision = ServiceFigures.AllocationTickPrecisionBytes(truth, heaps);
            Assert.True(sum >= truth - precision, $"{label}: tick sum {sum:N0} bytes, but the workers alone allocated {truth:N0}");
            Assert.True(sum <= truth + OverheadBytes + truth / 50, $"{label}: tick sum {sum:N0} bytes for {truth:N0} allocated: inflated");
            if (w.GetProperty("reported").ValueKind == JsonValueKind.Number)
            {
                var exact = w.GetProperty("reported").GetInt64();
                output.WriteLine($"{label}: GetTotalAllocatedBytes {exact:N0}, tick sum {sum:N0} ({(sum - exact) * 100.0 / Math.Max(exact, 1):+0.000;-0.000}%)");
                var margin = ServiceFigures.AllocationTickPrecisionBytes(exact, heaps);
                Assert.True(Math.Abs(sum - exact) <= margin,
                    $"{label}: tick sum {sum:N0} and GC.GetTotalAllocatedBytes {exact:N0} differ beyond the stated precision ±{margin:N0}");
                crossChecked++;
            }
        }

        Assert.True(crossChecked > 0, "no window had both figures: nothing was cross-checked");
    }

    private async Task<(JsonElement Settings, List<JsonElement> Windows)> RunProbeAsync(string profile, int seconds)
    {
        var probe = Lab.BuiltAssembly("SyncData.DatasProbe");
        var environment = RuntimeProfiles.Knobs.ToDictionary(knob => knob, string? (_) => null);
        foreach (var (name, value) in RuntimeProfiles.Find(profile)!.Environment)
        {
            environment[name] = value;
        }

        var result = await ChildProcess.RunAsync("dotnet", [probe, seconds.ToString(System.Globalization.CultureInfo.InvariantCulture)], new ChildProcessOptions
        {
            Environment = environment,
            OnLine = output.WriteLine,
            KeepAllOutput = true,
        });
        Assert.True(result.ExitCode == 0, $"probe exited with {result.ExitCode}: {result.StandardError}");
        var lines = result.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var settings = JsonDocument.Parse(lines[0]).RootElement.GetProperty("settings");
        return (settings, lines.Skip(1).Select(l => JsonDocument.Parse(l).RootElement).ToList());
    }
}
