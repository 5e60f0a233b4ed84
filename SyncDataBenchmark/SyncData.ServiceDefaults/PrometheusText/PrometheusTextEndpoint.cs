using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace SyncData.ServiceDefaults.PrometheusText;

public static class PrometheusTextEndpoint
{
    /// <summary><c>GET /metrics</c>: a collection of every instrument, in the Prometheus text exposition format.</summary>
    public static IEndpointConventionBuilder MapPrometheusText(this IEndpointRouteBuilder endpoints, string pattern = "/metrics") =>
        endpoints.MapGet(pattern, async context =>
        {
            var reader = context.RequestServices.GetRequiredService<PrometheusTextReader>();
            var scraped = await reader.ScrapeAsync(async text =>
            {
                context.Response.ContentType = PrometheusTextFormatter.ContentType;
                context.Response.ContentLength = text.Length;
                await context.Response.Body.WriteAsync(text, context.RequestAborted);
            }, context.RequestAborted);
            if (!scraped)
            {
                context.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
            }
        });
}
