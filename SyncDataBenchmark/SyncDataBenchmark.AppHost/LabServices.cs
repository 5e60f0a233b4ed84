using System.Globalization;

// WithoutHttpsCertificate is marked for evaluation in 13.6; it is the one way to give a resource no certificate.
#pragma warning disable ASPIRECERTIFICATES001

namespace SyncDataBenchmark.AppHost;

/// <summary>The two services as projects, each on its port on 127.0.0.1 (no proxy: the port is the service's own).</summary>
public static class LabServices
{
    public static IResourceBuilder<ProjectResource> AddLabService<TProject>(this IDistributedApplicationBuilder builder, string name, int port)
        where TProject : IProjectMetadata, new() =>
        builder.AddProject<TProject>(name)
            .WithHttpEndpoint(port: port, isProxied: false)
            // Urls, not ASPNETCORE_URLS: appsettings.json's Urls would win over the latter (and Aspire's names localhost).
            .WithEnvironment("Urls", string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}"))
            // Plain HTTP, as the lab serves: without this every project is handed the development certificate, and
            // the dashboard shows an error banner on every page where none is trusted (seen in the browser test).
            .WithoutHttpsCertificate()
            .WithHttpHealthCheck("/health");
}
