using System.Net;
using System.Text.Json;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// Both services' spending over one --follow run's load and catch-up (docs/replication.md, "The --follow matrix"):
/// opened before the load, closed once the target caught up; the first copy is outside it. Each mechanism opens its own
/// (IFollowMechanism.OpenCostWindowAsync): SomeService's follow window (<see cref="OpenServicesAsync"/>), a figure worked
/// out at the close (<see cref="Computed"/>), or none (<see cref="Fixed"/>). Disposing closes a window the run left open.
/// </summary>
public sealed class FollowCostWindow : IAsyncDisposable
{
    private readonly Func<Task<FollowCost>> _close;
    private bool _closed;

    private FollowCostWindow(Func<Task<FollowCost>> close) => _close = close;

    /// <summary>A window whose figures are known from the start (a mechanism no .NET process takes part in).</summary>
    public static FollowCostWindow Fixed(FollowCost cost) => new(() => Task.FromResult(cost));

    /// <summary>A window whose figures are worked out when it closes.</summary>
    public static FollowCostWindow Computed(Func<FollowCost> atClose) => new(() => Task.FromResult(atClose()));

    /// <summary>SomeService's follow window (/follow-window, which opens SyncDataSource's too).</summary>
    public static async Task<FollowCostWindow> OpenServicesAsync(FollowContext lab, CancellationToken ct)
    {
        using var opened = await lab.SomeService.PostAsync(SyncRoutes.FollowWindow, content: null, ct);
        if (opened.StatusCode != HttpStatusCode.Created)
        {
            // Measuring never fails the run: the figures are missing, and say why.
            var why = $"the follow window did not open: HTTP {(int)opened.StatusCode}: {await opened.Content.ReadAsStringAsync(ct)}";
            return Fixed(new FollowCost(null, why, null, why));
        }

        return new FollowCostWindow(() => CloseWindowAsync(lab));
    }

    /// <summary>Closes the window and answers what both services spent in it.</summary>
    public Task<FollowCost> CloseAsync()
    {
        _closed = true;
        return _close();
    }

    public async ValueTask DisposeAsync()
    {
        if (!_closed)
        {
            try
            {
                await CloseAsync();
            }
            catch (HttpRequestException)
            {
                // SomeService is gone, and its window with it: the run's own failure is what to report.
            }
        }
    }

    private static async Task<FollowCost> CloseWindowAsync(FollowContext lab)
    {
        using var closed = await lab.SomeService.DeleteAsync(SyncRoutes.FollowWindow, CancellationToken.None);
        var body = await closed.Content.ReadAsStringAsync(CancellationToken.None);
        if (closed.StatusCode != HttpStatusCode.OK || JsonSerializer.Deserialize(body, SyncJsonContext.Default.FollowWindowFigures) is not { } figures)
        {
            var why = $"the follow window did not close: HTTP {(int)closed.StatusCode}: {body}";
            return new FollowCost(null, why, null, why);
        }

        return FollowCost.Of(figures);
    }
}
