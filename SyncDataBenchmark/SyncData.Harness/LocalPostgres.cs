using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Npgsql;

namespace SyncData.Harness;

/// <summary>
/// A throwaway PostgreSQL cluster: initdb into a temp directory, started on a free loopback port, removed on dispose.
/// As root it runs as the `postgres` system user (PostgreSQL refuses to run as root).
/// </summary>
public sealed class LocalPostgres : IAsyncDisposable
{
    private readonly string _binDirectory;
    private readonly string _dataDirectory;
    private string _serverOptions = "";
    private PostgresHost? _host;

    public string Directory { get; }
    public int Port { get; }
    public string Version { get; private set; } = "";

    private LocalPostgres(string binDirectory, string directory, int port)
    {
        _binDirectory = binDirectory;
        Directory = directory;
        _dataDirectory = Path.Combine(directory, "data");
        Port = port;
    }

    /// <summary>Over TCP 127.0.0.1: what a process on the cluster's own host (its namespace, if any) uses.</summary>
    public string ConnectionString(string database) => WithHost("127.0.0.1", database);

    /// <summary>
    /// What a process in the root namespace uses: the unix socket in <see cref="Directory"/> when the cluster runs in
    /// a namespace (a pathname socket works across network namespaces; its loopback does not), else TCP loopback.
    /// </summary>
    public string ControlConnectionString(string database) => _host is null ? ConnectionString(database) : WithHost(Directory, database);

    /// <summary>Over the link: what the other host of a two-host lab uses.</summary>
    public string LinkConnectionString(string database) =>
        WithHost(_host?.LinkAddress ?? throw new InvalidOperationException("This cluster listens on no link address."), database);

    private string WithHost(string host, string database) =>
        new NpgsqlConnectionStringBuilder { Host = host, Port = Port, Username = "postgres", Database = database }.ConnectionString;

    /// <summary>A cluster as one host of a two-host lab: started inside <paramref name="host"/>'s namespace.</summary>
    public static Task<LocalPostgres> StartAsync(PostgresHost host, IReadOnlyDictionary<string, string>? settings = null, string? parentDirectory = null, CancellationToken ct = default) =>
        StartAsync(settings, parentDirectory, host, ct);

    /// <param name="settings">Extra server settings (-c name=value), e.g. fsync=off.</param>
    /// <param name="parentDirectory">Where the cluster lives (default: the system temp directory); a tmpfs path puts it in memory.</param>
    public static Task<LocalPostgres> StartAsync(IReadOnlyDictionary<string, string>? settings = null, string? parentDirectory = null, CancellationToken ct = default) =>
        StartAsync(settings, parentDirectory, null, ct);

    private static async Task<LocalPostgres> StartAsync(IReadOnlyDictionary<string, string>? settings, string? parentDirectory, PostgresHost? host, CancellationToken ct)
    {
        var bin = FindBinDirectory();
        var parent = parentDirectory ?? Path.GetTempPath();
        var directory = Path.Combine(parent, "syncdata-pg-" + Path.GetRandomFileName());
        System.IO.Directory.CreateDirectory(directory);
        // Whose cluster this is: if this process dies without disposing it, the next lab's sweep stops it.
        await File.WriteAllTextAsync(Path.Combine(directory, LabSweeper.OwnerFile), LabSweeper.Me, ct);

        var server = new LocalPostgres(bin, directory, FreePort()) { _host = host };
        try
        {
            if (IsRoot)
            {
                await Run("chown", ["-R", "postgres:postgres", directory], asPostgres: false, inNamespace: null, ct);
            }

            await server.RunTool("initdb", ["-D", server._dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], ct);
            await server.TrustLinkAsync(ct);
            var listen = host?.LinkAddress is { } link ? $"127.0.0.1,{link}" : "127.0.0.1";
            var options = new List<string> { $"-p {server.Port}", $"-k {directory}", $"-c listen_addresses={listen}" };
            options.AddRange((settings ?? new Dictionary<string, string>()).Select(s => $"-c {s.Key}={s.Value}"));
            server._serverOptions = string.Join(' ', options);
            await server.RestartAsync(ct);
            await using var connection = new NpgsqlConnection(server.ControlConnectionString("postgres"));
            await connection.OpenAsync(ct);
            server.Version = connection.PostgreSqlVersion.ToString();
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    /// <summary>initdb -A trust trusts loopback only: the other host of a lab is trusted from its /30 alone.</summary>
    private async Task TrustLinkAsync(CancellationToken ct)
    {
        if (_host?.TrustedNetwork is { } network)
        {
            await File.AppendAllTextAsync(Path.Combine(_dataDirectory, "pg_hba.conf"), $"\nhost all all {network} trust\n", ct);
        }
    }

    public async Task CreateDatabaseAsync(string name, CancellationToken ct = default)
    {
        await using var connection = new NpgsqlConnection(ControlConnectionString("postgres"));
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand($"create database \"{name}\"", connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>Stops the server abruptly (as a crash would) or cleanly, keeping its data.</summary>
    public Task StopAsync(bool immediate = true, CancellationToken ct = default) =>
        RunTool("pg_ctl", ["-D", _dataDirectory, "-m", immediate ? "immediate" : "fast", "-w", "stop"], ct);

    /// <summary>Starts the (stopped) server again with the same settings.</summary>
    public Task RestartAsync(CancellationToken ct = default) =>
        RunTool("pg_ctl", ["-D", _dataDirectory, "-l", Path.Combine(Directory, "server.log"), "-o", _serverOptions, "-w", "-t", "60", "start"], ct);

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (File.Exists(Path.Combine(_dataDirectory, "postmaster.pid")))
            {
                await StopAsync(immediate: true);
            }
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException)
        {
            // Best effort: the directory goes anyway.
        }

        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    // In the host's namespace: the server pg_ctl starts stays in it.
    private Task RunTool(string tool, IReadOnlyList<string> arguments, CancellationToken ct) =>
        Run(Path.Combine(_binDirectory, tool), arguments, asPostgres: IsRoot, _host?.Namespace, ct);

    private static bool IsRoot => Environment.UserName == "root";

    private static async Task Run(string file, IReadOnlyList<string> arguments, bool asPostgres, string? inNamespace, CancellationToken ct)
    {
        var options = new ChildProcessOptions { AsUser = asPostgres ? "postgres" : null, Namespace = inNamespace, KeepAllOutput = true };
        var result = await ChildProcess.RunAsync(file, arguments, options, ct: ct);
        if (result.ExitCode != 0)
        {
            throw new InvalidOperationException($"{Path.GetFileName(file)} {string.Join(' ', arguments)} exited with {result.ExitCode}: {result.StandardError}{result.StandardOutput}");
        }
    }

    /// <summary>PG_BIN if set, else the newest /usr/lib/postgresql/*/bin with initdb.</summary>
    private static string FindBinDirectory()
    {
        if (Environment.GetEnvironmentVariable("PG_BIN") is { Length: > 0 } configured)
        {
            return configured;
        }

        var candidates = System.IO.Directory.Exists("/usr/lib/postgresql")
            ? System.IO.Directory.GetDirectories("/usr/lib/postgresql")
                .Select(d => (Dir: Path.Combine(d, "bin"), Version: int.TryParse(Path.GetFileName(d), out var v) ? v : 0))
                .Where(c => File.Exists(Path.Combine(c.Dir, "initdb")))
                .OrderByDescending(c => c.Version)
                .Select(c => c.Dir)
            : [];
        return candidates.FirstOrDefault()
               ?? throw new InvalidOperationException("No PostgreSQL server binaries found: install postgresql (Debian) or set PG_BIN to the directory holding initdb and pg_ctl.");
    }

    /// <summary>Ports this process has handed out: two labs starting side by side never get the same one.</summary>
    private static readonly ConcurrentDictionary<int, byte> HandedOut = new();

    /// <summary>A loopback port free now and not handed out before by this process (its server binds it later).</summary>
    public static int FreePort()
    {
        while (true)
        {
            using var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            var port = ((IPEndPoint)listener.LocalEndpoint).Port;
            if (HandedOut.TryAdd(port, 0))
            {
                return port;
            }
        }
    }
}
