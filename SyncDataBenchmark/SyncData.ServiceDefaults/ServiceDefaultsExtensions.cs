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
using SyncData.ServiceDefaults.PrometheusText;
using SyncData.Shared;

namespace SyncData.ServiceDefaults;

public static class ServiceDefaultsExtensions
{
    /// <summary>Meters whose instruments the services publish: ASP.NET Core, Kestrel, HttpClient, runtime, Npgsql, the lab.</summary>
    public static readonly string[] Meters =
    [
        "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "Microsoft.AspNetCore.Http.Connections",
        "System.Net.Http", "System.Runtime", "Npgsql", SyncMeter.Name,
    ];

    /// <summary>Activity sources traced: incoming requests, outgoing HttpClient calls, Npgsql commands.</summary>
    public static readonly string[] TraceSources = ["Microsoft.AspNetCore", "System.Net.Http", "Npgsql"];

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
    /// OpenTelemetry's job here: the built-in .NET meters and the lab's own, always readable as Prometheus text at
    /// /metrics (collected only when scraped); and, when OTEL_EXPORTER_OTLP_ENDPOINT is set, metrics and traces
    /// pushed over OTLP as well.
    /// </summary>
    private static void AddOpenTelemetryExport(this WebApplicationBuilder builder)
    {
        var otlp = !string.IsNullOrWhiteSpace(builder.Configuration["OTEL_EXPORTER_OTLP_ENDPOINT"]);
        var serviceName = builder.Environment.ApplicationName;
        // An instance, not a factory registration: the meter provider owns and disposes it, the container must not.
        var prometheus = new PrometheusTextReader();
        builder.Services.AddSingleton(prometheus);
        builder.Services.AddSingleton(_ => OpenTelemetrySdk.Create(otel =>
        {
            otel.ConfigureResource(r => r.AddService(serviceName))
                .WithMetrics(m => m.AddMeter(Meters).AddReader(prometheus));
            if (otlp)
            {
                otel.WithTracing(t => t.AddSource(TraceSources)).UseOtlpExporter();
            }
        }));
        builder.Services.AddHostedService<OpenTelemetryStarter>();
    }

    /// <summary>Registers the service's database: one pooled NpgsqlDataSource and its readiness check (a service adds its own EF context on top).</summary>
    /// <param name="configure">Adjusts the connection settings (e.g. the Command Timeout) once services exist.</param>
    public static WebApplicationBuilder AddPostgresDataSource(this WebApplicationBuilder builder, string connectionName,
        Action<IServiceProvider, NpgsqlConnectionStringBuilder>? configure = null)
    {
        // Npgsql's default timestamp mapping stays on (±infinity ↔ DateTime.MaxValue/MinValue), as every user of Npgsql
        // runs it; the one value it cannot tell apart, 0001-01-01 00:00:00, is refused by the readers instead (README, "Guarantees").
        var connectionString = builder.Configuration.GetConnectionString(connectionName)
            ?? throw new InvalidOperationException($"ConnectionStrings:{connectionName} is not configured.");
        builder.Services.AddSingleton(sp =>
        {
            var dataSource = new NpgsqlDataSourceBuilder(connectionString) { Name = connectionName };
            configure?.Invoke(sp, dataSource.ConnectionStringBuilder);
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
        app.MapPrometheusText("/metrics");
        // Created now, not at the first run: under DATAS its GC event listener must see the heap count from the start.
        var settings = app.Services.GetRequiredService<RuntimeWindow>().Settings;
        app.MapGet("/runtime/settings", () => TypedResults.Ok(settings));
        return app;
    }

    private sealed class OpenTelemetryStarter(OpenTelemetrySdk sdk) : IHostedService
    {
        // Taking the SDK as a dependency creates it (and its listeners) at startup rather than never.
        public OpenTelemetrySdk Sdk { get; } = sdk;

        public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
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
