using Microsoft.Extensions.Primitives;
using SyncData.Shared;

namespace SyncDataSource.Measurement;

/// <summary>Wires <see cref="RunMeasurement"/> in: around the fetch endpoints, and a baseline collection at startup.</summary>
public static class RunMeasurementApi
{
    /// <summary>Endpoint metadata: requests to this endpoint are part of a run when tagged.</summary>
    public sealed class Measured;

    public static IServiceCollection AddRunMeasurement(this IServiceCollection services) =>
        services.AddSingleton<RunMeasurement>().AddHostedService<StartupBaseline>();

    /// <summary>Tagged requests to <see cref="Measured"/> endpoints open their run's window; a failed one gives it up.</summary>
    public static IApplicationBuilder UseRunMeasurement(this IApplicationBuilder app)
    {
        var measurement = app.ApplicationServices.GetRequiredService<RunMeasurement>();
        return app.Use(async (http, next) =>
        {
            if (http.GetEndpoint()?.Metadata.GetMetadata<Measured>() is null || RunOf(http.Request) is not { } run)
            {
                await next(http);
                return;
            }

            measurement.Enter(run);
            try
            {
                await next(http);
            }
            catch (Exception ex)
            {
                measurement.Abandon(run, ex.GetType().Name);
                throw;
            }

            if (http.RequestAborted.IsCancellationRequested)
            {
                measurement.Abandon(run, "the request was aborted");
            }
            else if (http.Response.StatusCode >= 400)
            {
                measurement.Abandon(run, $"answered {http.Response.StatusCode}");
            }
        });
    }

    /// <summary>The run a request belongs to, or null when it carries no (valid) <see cref="SourceRoutes.RunHeader"/>.</summary>
    public static Guid? RunOf(HttpRequest request) =>
        request.Headers.TryGetValue(SourceRoutes.RunHeader, out StringValues value) && Guid.TryParse(value.ToString(), out var run) ? run : null;

    // Startup leaves garbage too; the first run must start from the same baseline as the rest.
    private sealed class StartupBaseline(RunMeasurement measurement) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            measurement.CollectBaseline();
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
