using Npgsql;
using SyncData.Harness;

namespace SyncDataBenchmark.Runner;

/// <summary>A user's PostgreSQL server (--connection): its databases source and target, created if missing; the runner owns nothing there.</summary>
public static class ExistingServer
{
    public static async Task<LabDatabases> OpenAsync(string connection, Action<string> say, CancellationToken ct)
    {
        say($"Using the PostgreSQL server of --connection ({new NpgsqlConnectionStringBuilder(connection).Host}).");
        var (source, target) = (WithDatabase(connection, Lab.SourceDatabase), WithDatabase(connection, Lab.TargetDatabase));
        await EnsureDatabaseAsync(connection, Lab.SourceDatabase, ct);
        await EnsureDatabaseAsync(connection, Lab.TargetDatabase, ct);
        return new LabDatabases(source, target, new PeerPlacement(null, source, target));
    }

    private static string WithDatabase(string connection, string database) =>
        new NpgsqlConnectionStringBuilder(connection) { Database = database }.ConnectionString;

    /// <summary>CREATE DATABASE has no IF NOT EXISTS.</summary>
    private static async Task EnsureDatabaseAsync(string connection, string database, CancellationToken ct)
    {
        var maintenance = new NpgsqlConnectionStringBuilder(connection);
        maintenance.Database ??= "postgres";
        if (await Lab.ScalarAsync(maintenance.ConnectionString, $"select 1 from pg_database where datname = '{database}'", ct) is null)
        {
            await Lab.ScalarAsync(maintenance.ConnectionString, $"create database \"{database}\"", ct);
        }
    }
}
