using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Npgsql;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using SyncData.Measurement;
using SyncData.Shared;

namespace SyncData.ServiceDefaults;

public static class ServiceDefaultsExtensions
{
    /// <summary>
    /// Meters added by name: the runtime's own (OpenTelemetry.Instrumentation.Runtime would add only this name on
    /// .NET 9+, so it is not used) and the lab's. ASP.NET Core, Kestrel, HttpClient and Npgsql come through their
    /// instrumentation packages below.
    /// </summary>
    public static readonly string[] Meters = ["System.Runtime", SyncMeter.Name];

    /// <summary>Requests neither traced nor worth a span: Prometheus' scrape every second and the health probes.</summary>
    public static bool IsScrapeOrHealth(PathString path) =>
        path.StartsWithSegments("/metrics", StringComparison.Ordinal) || path.StartsWithSegments("/health", StringComparison.Ordinal);

    public static WebApplicationBuilder AddServiceDefaults(this WebApplicationBuilder builder)
    {
        builder.Services.AddProblemDetails();
        builder.Services.ConfigureHttpJsonOptions(o => o.SerializerOptions.TypeInfoResolverChain.Insert(0, SyncJsonContext.Default));
        builder.Services.AddSingleton<RuntimeWindow>();
        builder.Services.AddHealthChecks();
        builder.AddOpenTelemetryExport();
        return builder;
    }

    /// <summary>
    /// OpenTelemetry's SDK as the hosting integration wires it: metrics always, read by the official Prometheus
    /// exporter at /metrics (collected only when scraped); traces, and an OTLP push of traces, metrics and logs, only
    /// when OTEL_EXPORTER_OTLP_ENDPOINT is set (the AppHost sets it; spans with nowhere to go would cost every request
    /// for nothing). Every span under a sync run carries its id (RunTelemetry).
    /// </summary>
    private static void AddOpenTelemetryExport(this WebApplicationBuilder builder)
    {
        var otlp = !string.IsNullOrWhiteSpace(builder.Configuration["OTEL_EXPORTER_OTLP_ENDPOINT"]);
        var otel = builder.Services.AddOpenTelemetry()
            .ConfigureResource(r => r.AddService(builder.Environment.ApplicationName))
            .WithMetrics(m => m
                .AddAspNetCoreInstrumentation()
                .AddHttpClientInstrumentation()
                .AddNpgsqlInstrumentation()
                .AddMeter(Meters)
                // No cached response: a scrape right after a run must see the run's final figures (the tests read
                // /metrics just after a run; Prometheus asks once a second, so a 300 ms cache would save nothing).
                .AddPrometheusExporter(o => o.ScrapeResponseCacheDurationMilliseconds = 0));
        if (otlp)
        {
            otel.WithTracing(t => t
                    .AddAspNetCoreInstrumentation(o => o.Filter = context => !IsScrapeOrHealth(context.Request.Path))
                    .AddHttpClientInstrumentation()
                    .AddNpgsql()
                    .AddProcessor<RunIdSpanProcessor>())
                .UseOtlpExporter();
        }
    }

    /// <summary>Registers the service's database: one pooled NpgsqlDataSource and its readiness check (a service adds its own EF context on top).</summary>
    /// <param name="configure">Adjusts the connection settings (e.g. the Command Timeout) once services exist.</param>
    /// <param name="mapTypes">The service's own type mappings (its model's PostgreSQL enums), which Npgsql wants on the data source.</param>
    public static WebApplicationBuilder AddPostgresDataSource(this WebApplicationBuilder builder, string connectionName,
        Action<IServiceProvider, NpgsqlConnectionStringBuilder>? configure = null, Action<NpgsqlDataSourceBuilder>? mapTypes = null)
    {
        // Npgsql's default timestamp mapping stays on (±infinity ↔ DateTime.MaxValue/MinValue), as every user of Npgsql
        // runs it; the one value it cannot tell apart, 0001-01-01 00:00:00, is refused by the readers instead (README, "Guarantees").
        var connectionString = builder.Configuration.GetConnectionString(connectionName)
            ?? throw new InvalidOperationException($"ConnectionStrings:{connectionName} is not configured.");
        builder.Services.AddSingleton(sp =>
        {
            var dataSource = new NpgsqlDataSourceBuilder(connectionString) { Name = connectionName };
            configure?.Invoke(sp, dataSource.ConnectionStringBuilder);
            mapTypes?.Invoke(dataSource);
            return dataSource.Build();
        });
        builder.Services.AddHealthChecks().AddCheck<PostgresHealthCheck>("postgres", tags: ["ready"]);
        return builder;
    }

    /// <summary>/health (process up), /health/ready (database reachable), /metrics (Prometheus), the runtime settings.</summary>
    public static WebApplication MapDefaultEndpoints(this WebApplication app)
    {
        app.UseExceptionHandler();
        app.Use(async (context, next) =>
        {
            try
            {
                await next(context);
            }
            catch (Exception ex) when (PostgresPool.IsDatabaseUnreachable(ex))
            {
                context.RequestServices.GetService<NpgsqlDataSource>()?.ClearIfConnectionFailure(ex);
                if (context.Response.HasStarted)
                {
                    throw;
                }

                // Not a bug in the service: its database is down. Say so, and that retrying later will work.
                context.Response.Clear();
                await TypedResults.Problem($"This service's database is unreachable; retry once it is back. ({ex.GetBaseException().Message})",
                    statusCode: StatusCodes.Status503ServiceUnavailable, title: "Database unavailable").ExecuteAsync(context);
            }
        });
        app.UseStatusCodePages();
        app.MapHealthChecks("/health", new() { Predicate = _ => false });
        app.MapHealthChecks("/health/ready");
        app.MapPrometheusScrapingEndpoint("/metrics");
        // Created now, not at the first run: under DATAS its GC event listener must see the heap count from the start.
        var settings = app.Services.GetRequiredService<RuntimeWindow>().Settings;
        app.MapGet("/runtime/settings", () => TypedResults.Ok(settings));
        return app;
    }

    private sealed class PostgresHealthCheck(NpgsqlDataSource dataSource) : IHealthCheck
    {
        public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
        {
            try
            {
                await using var command = dataSource.CreateCommand("select 1");
                await command.ExecuteScalarAsync(cancellationToken);
                return HealthCheckResult.Healthy();
            }
            catch (Exception ex) when (ex is NpgsqlException or TimeoutException or System.Net.Sockets.SocketException)
            {
                dataSource.ClearIfConnectionFailure(ex);
                return HealthCheckResult.Unhealthy("PostgreSQL is unreachable", ex);
            }
        }
    }
}
