using SyncData.Shared;

namespace SyncData.Harness;

/// <summary>Where the lab's pieces are: the repository, the built services.</summary>
public static class Lab
{
    public const string SourceDatabase = "source";
    public const string TargetDatabase = "target";

    /// <summary>The repository root: the directory holding sql/ and SyncDataBenchmark/.</summary>
    public static string RepositoryRoot { get; } = FindRepositoryRoot();

    /// <summary>A service's built assembly, in the same configuration as the calling code.</summary>
    public static string ServiceAssembly(string project, string configuration) =>
        Path.Combine(RepositoryRoot, "SyncDataBenchmark", project, "bin", configuration, "net10.0", project + ".dll");

    /// <summary>Environment that points SyncDataSource at its database.</summary>
    public static Dictionary<string, string> SourceEnvironment(string connectionString) => new()
    {
        ["ConnectionStrings__Source"] = connectionString,
    };

    /// <summary>Environment that points SomeService at its database and at SyncDataSource.</summary>
    public static Dictionary<string, string> SomeServiceEnvironment(string connectionString, Uri source) => new()
    {
        ["ConnectionStrings__Target"] = connectionString,
        ["Sync__SourceBaseUrl"] = source.ToString(),
    };

    /// <summary>Reads a database's users summary directly, independent of both services.</summary>
    public static async Task<TableSummary> ReadSummaryAsync(string connectionString, CancellationToken ct = default)
    {
        // Unpooled: a check made after a server restart must not trip over a dead pooled connection.
        await using var connection = new Npgsql.NpgsqlConnection(new Npgsql.NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync(ct);
        return await connection.ReadUsersSummaryAsync(null, ct);
    }

    private static string FindRepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (Directory.Exists(Path.Combine(dir.FullName, "sql")) && Directory.Exists(Path.Combine(dir.FullName, "SyncDataBenchmark")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException($"Cannot find the repository root above {AppContext.BaseDirectory}.");
    }
}
