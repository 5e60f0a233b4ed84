using System.Diagnostics;
using SyncData.ServiceDefaults;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A run's id goes on its spans only when they are recorded (an OTLP endpoint is set): a measured run, whose request
/// activity exists only for log scopes, gets no tag and sends no baggage header (docs/observability.md).
/// </summary>
[Trait("Tier", "Fast")]
public sealed class RunTelemetryTests
{
    [Fact]
    public void An_unrecorded_activity_gets_neither_tag_nor_baggage()
    {
        // What ASP.NET Core creates for a request when nothing traces: all data requested, never recorded.
        using var request = new Activity("Microsoft.AspNetCore.Hosting.HttpRequestIn").Start();
        Assert.True(request.IsAllDataRequested);

        RunTelemetry.MarkRun(Guid.CreateVersion7());

        Assert.Empty(request.Baggage);
        Assert.Empty(request.TagObjects);
    }

    [Fact]
    public void A_recorded_activity_carries_the_run_as_tag_and_baggage_to_its_children()
    {
        using var source = new ActivitySource("RunTelemetryTests." + Guid.NewGuid());
        using var listener = new ActivityListener
        {
            ShouldListenTo = s => s == source,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
        };
        ActivitySource.AddActivityListener(listener);
        var run = Guid.CreateVersion7();

        using var trigger = source.StartActivity("GET /sync")!;
        RunTelemetry.MarkRun(run);
        using var child = source.StartActivity("postgresql")!;

        Assert.Equal(run.ToString(), trigger.GetTagItem(RunTelemetry.RunIdKey));
        Assert.Equal(run.ToString(), child.GetBaggageItem(RunTelemetry.RunIdKey));
    }
}
