using System.Net;
using System.Security.Cryptography;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace SyncData.ServiceDefaults;

/// <summary>
/// Who may open and close a service's measurement window. Each call runs a blocking, compacting full GC and resets
/// the run's counters, so anyone able to call it could skew a running measurement: off unless the lab turns it on,
/// and then only with the lab's key, from loopback unless <see cref="AllowRemote"/>.
/// </summary>
public sealed class MeasurementOptions
{
    public const string Section = "Measurement";

    /// <summary>The header that carries <see cref="Key"/>, on the source's endpoints and on SomeService's calls to them.</summary>
    public const string KeyHeader = "X-Measurement-Key";

    /// <summary>Maps POST /runtime/window/start|stop; without it they are 404.</summary>
    public bool Enabled { get; set; }

    /// <summary>
    /// The lab's shared secret: required by the endpoints (403 without it), and sent by SomeService when it asks
    /// SyncDataSource for its figures. Required when <see cref="Enabled"/>.
    /// </summary>
    public string? Key { get; set; }

    /// <summary>Accept callers that are not on loopback (e.g. SomeService in another container).</summary>
    public bool AllowRemote { get; set; }
}

public static class MeasurementEndpoints
{
    public static WebApplicationBuilder AddMeasurementOptions(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<MeasurementOptions>().BindConfiguration(MeasurementOptions.Section)
            .Validate(o => !o.Enabled || !string.IsNullOrEmpty(o.Key),
                $"{MeasurementOptions.Section}:Enabled needs {MeasurementOptions.Section}:Key (the lab's shared secret, sent as {MeasurementOptions.KeyHeader}).")
            .ValidateOnStart();
        return builder;
    }

    /// <summary>POST /runtime/window/start|stop, only when the configuration enables them.</summary>
    public static WebApplication MapMeasurementEndpoints(this WebApplication app)
    {
        var options = app.Services.GetRequiredService<IOptions<MeasurementOptions>>().Value;
        if (!options.Enabled)
        {
            return app;
        }

        var key = Encoding.UTF8.GetBytes(options.Key!);
        var runtime = app.MapGroup("/runtime/window").AddEndpointFilter(async (context, next) =>
        {
            var http = context.HttpContext;
            if (!options.AllowRemote && !IsLoopback(http.Connection.RemoteIpAddress))
            {
                return TypedResults.Problem("The measurement window is reachable from loopback only (Measurement:AllowRemote is off).",
                    statusCode: StatusCodes.Status403Forbidden);
            }

            var given = Encoding.UTF8.GetBytes(http.Request.Headers[MeasurementOptions.KeyHeader].ToString());
            if (!CryptographicOperations.FixedTimeEquals(given, key))
            {
                return TypedResults.Problem($"The measurement window needs the lab's key in {MeasurementOptions.KeyHeader}.",
                    statusCode: StatusCodes.Status403Forbidden);
            }

            return await next(context);
        });
        runtime.MapPost("/start", (RuntimeWindow window) => TypedResults.Ok(window.Start()));
        runtime.MapPost("/stop", (RuntimeWindow window) => TypedResults.Ok(window.Stop()));
        return app;
    }

    // Null (no socket, e.g. an in-process test host) is not loopback: refuse what cannot be placed.
    private static bool IsLoopback(IPAddress? address) =>
        address is not null && IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);
}
