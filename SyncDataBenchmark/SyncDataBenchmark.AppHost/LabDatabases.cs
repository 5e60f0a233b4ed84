using System.Globalization;
using Microsoft.Extensions.DependencyInjection;
using Npgsql;

namespace SyncDataBenchmark.AppHost;

/// <summary>
/// The two databases: by default Debian's PostgreSQL started here and seeded as the compose stack's is
/// (scripts/aspire/postgres.sh); with ConnectionStrings:Source and ConnectionStrings:Target set, an existing server
/// (seeded by sql/docker-init/10-source-and-target.sh) and nothing started.
/// </summary>
public static class LabDatabases
{
    private const string Seeded = "postgres-seeded";

    public static (IResourceBuilder<IResourceWithConnectionString> Source, IResourceBuilder<IResourceWithConnectionString> Target, IResourceBuilder<ExecutableResource>? Server)
        AddLabDatabases(this IDistributedApplicationBuilder builder, LabSettings lab)
    {
        if (lab.ExistingServer)
        {
            return (builder.AddConnectionString("Source"), builder.AddConnectionString("Target"), null);
        }

        var source = ConnectionString(lab.PostgresPort, "source");
        var server = builder.AddExecutable("postgres", "bash", lab.RepositoryRoot,
                Path.Combine(lab.RepositoryRoot, "scripts", "aspire", "postgres.sh"), lab.PostgresData, lab.PostgresPort.ToString(CultureInfo.InvariantCulture))
            .WithEnvironment("SEED_ROWS", lab.SeedRows.ToString(CultureInfo.InvariantCulture))
            .WithEndpoint(port: lab.PostgresPort, targetPort: lab.PostgresPort, scheme: "tcp", name: "tcp", isProxied: false)
            .WithHealthCheck(Seeded);
        // Healthy once TCP answers, which the script opens only after seeding.
        builder.Services.AddHealthChecks().AddNpgSql(source, name: Seeded);
        return (builder.AddConnectionString("Source", ReferenceExpression.Create($"{source}")),
            builder.AddConnectionString("Target", ReferenceExpression.Create($"{ConnectionString(lab.PostgresPort, "target")}")),
            server);
    }

    /// <summary>Waits for the server started here, if any, to be seeded.</summary>
    public static IResourceBuilder<T> WaitForDatabase<T>(this IResourceBuilder<T> service, IResourceBuilder<ExecutableResource>? server)
        where T : IResourceWithWaitSupport =>
        server is null ? service : service.WaitFor(server);

    private static string ConnectionString(int port, string database) =>
        new NpgsqlConnectionStringBuilder { Host = "127.0.0.1", Port = port, Username = "postgres", Database = database }.ConnectionString;
}
