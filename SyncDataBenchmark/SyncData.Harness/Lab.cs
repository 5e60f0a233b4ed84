using System.Reflection;
using System.Runtime.Versioning;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncData.Harness;

/// <summary>Where the lab's pieces are: the repository, the built services.</summary>
public static class Lab
{
    public const string SourceDatabase = "source";
    public const string TargetDatabase = "target";

    /// <summary>The repository root: the directory holding sql/ and SyncDataBenchmark/.</summary>
    public static string RepositoryRoot { get; } = FindRepositoryRoot();

    /// <summary>
    /// A project's built assembly (a service, the runner), in the configuration and target framework this harness was
    /// built with: the solution builds them together, and Directory.Build.props is the one place that names both.
    /// </summary>
    public static string BuiltAssembly(string project) =>
        Path.Combine(RepositoryRoot, "SyncDataBenchmark", project, "bin", BuildConfiguration, TargetFramework, project + ".dll");

    /// <summary>"Release" or "Debug", as this assembly was built.</summary>
    public static string BuildConfiguration { get; } =
        typeof(Lab).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";

    /// <summary>The target framework moniker this assembly was built for, e.g. net10.0.</summary>
    public static string TargetFramework { get; } =
        "net" + new FrameworkName(typeof(Lab).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()!.FrameworkName).Version.ToString(2);

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

    /// <summary>
    /// The tables on both databases (the source's with the row generator, the change log and the change generator), and the source seeded with
    /// <paramref name="seedRows"/> rows; 0 leaves it as it is.
    /// </summary>
    public static async Task PrepareDatabasesAsync(string sourceDb, string targetDb, long seedRows, CancellationToken ct = default)
    {
        await SqlScripts.ApplySchemaAsync(sourceDb, withGenerator: true, ct);
        await SqlScripts.ApplyChangeTrackingAsync(sourceDb, ct);
        await SqlScripts.ApplySchemaAsync(targetDb, withGenerator: false, ct);
        if (seedRows > 0)
        {
            await SqlScripts.SeedAsync(sourceDb, seedRows, ct);
        }
    }

    /// <summary>Reads the default table's count and checksum in a database directly (<see cref="SyncTable.Default"/>), independent of both services.</summary>
    public static Task<TableChecksum> ReadChecksumAsync(string connectionString, CancellationToken ct = default) =>
        ReadChecksumAsync(connectionString, SyncTable.Default, ct);

    /// <summary>Reads <paramref name="table"/>'s count and checksum in a database directly, independent of both services.</summary>
    public static async Task<TableChecksum> ReadChecksumAsync(string connectionString, SyncTable table, CancellationToken ct = default)
    {
        await using var connection = await OpenUnpooledAsync(connectionString, ct);
        return await connection.ReadChecksumAsync(table, null, ct);
    }

    /// <summary>One statement's single value, on its own unpooled connection.</summary>
    public static Task<object?> ScalarAsync(string connectionString, string sql, CancellationToken ct = default) =>
        ScalarAsync(connectionString, sql, [], ct);

    /// <summary>The same with positional parameters ($1, $2, …).</summary>
    public static async Task<object?> ScalarAsync(string connectionString, string sql, IReadOnlyList<object> parameters, CancellationToken ct = default)
    {
        await using var connection = await OpenUnpooledAsync(connectionString, ct);
        await using var command = new Npgsql.NpgsqlCommand(sql, connection) { CommandTimeout = 0 };
        foreach (var parameter in parameters)
        {
            command.Parameters.Add(new() { Value = parameter });
        }

        return await command.ExecuteScalarAsync(ct);
    }

    /// <summary>Unpooled: checks made around faults and server restarts must not trip over a dead pooled connection.</summary>
    private static async Task<Npgsql.NpgsqlConnection> OpenUnpooledAsync(string connectionString, CancellationToken ct)
    {
        var connection = new Npgsql.NpgsqlConnection(new Npgsql.NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        await connection.OpenAsync(ct);
        return connection;
    }

    /// <summary>The same for the default table (<see cref="SyncTable.Default"/>).</summary>
    public static Task MakeTargetDifferAsync(string targetConnection, TableChecksum source, CancellationToken ct = default) =>
        MakeTargetDifferAsync(targetConnection, SyncTable.Default, source, ct);

    /// <summary>
    /// Untimed, before every run and every peer: empties the target's <paramref name="table"/> and leaves one sentinel
    /// row no source holds (Tables/&lt;table&gt;/sentinel.sql), so that a run or a tool that does nothing can never
    /// verify. Throws if the target still equals the source.
    /// </summary>
    public static async Task MakeTargetDifferAsync(string targetConnection, SyncTable table, TableChecksum source, CancellationToken ct = default)
    {
        await using var connection = await OpenUnpooledAsync(targetConnection, ct);
        await using (var command = new Npgsql.NpgsqlCommand(SqlScripts.ForTable(table, "sentinel.sql"), connection))
        {
            await command.ExecuteNonQueryAsync(ct);
        }

        if (await connection.ReadChecksumAsync(table, null, ct) == source)
        {
            throw new InvalidOperationException($"The target's {table.Name} still equals the source after planting the sentinel row; a run could verify without copying.");
        }
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
