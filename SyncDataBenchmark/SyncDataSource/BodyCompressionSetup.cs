using System.IO.Compression;
using Microsoft.AspNetCore.ResponseCompression;

namespace SyncDataSource;

/// <summary>
/// ASP.NET Core's response compression for the fetch bodies: gzip and brotli, used only when a request's
/// Accept-Encoding asks (SomeService asks when a run's c= is gzip or brotli; see docs/endpoints.md).
/// </summary>
public static class BodyCompressionSetup
{
    public const string Section = "ResponseCompression";

    /// <summary>
    /// The content types the fetch endpoints answer with: JSON (the pages, the EFStream array), binary COPY and the Arrow
    /// IPC stream (ArrowStream: HTTP's compression of the whole body, as for the others, not Arrow's own buffer codecs). Problem
    /// details (application/problem+json) stay plain, so an error reads the same whatever the run asked for.
    /// </summary>
    public static readonly string[] MimeTypes = ["application/json", "application/octet-stream", SyncData.Arrow.ArrowFormat.ContentType];

    /// <summary>
    /// Both levels default to <see cref="CompressionLevel.Fastest"/> (gzip level 1, brotli quality 1): on loopback the
    /// wire is not the bottleneck and the source shares two cores with PostgreSQL and SomeService, so a stronger level
    /// would mostly buy CPU time; Fastest shows the cheapest point of the trade. ResponseCompression:Gzip:Level and
    /// ResponseCompression:Brotli:Level change them.
    /// </summary>
    public static IServiceCollection AddBodyCompression(this IServiceCollection services)
    {
        services.AddResponseCompression(o =>
        {
            o.Providers.Add<BrotliCompressionProvider>();
            o.Providers.Add<GzipCompressionProvider>();
            o.MimeTypes = MimeTypes;
        });
        services.AddOptions<GzipCompressionProviderOptions>().BindConfiguration(Section + ":Gzip");
        services.AddOptions<BrotliCompressionProviderOptions>().BindConfiguration(Section + ":Brotli");
        return services;
    }
}
