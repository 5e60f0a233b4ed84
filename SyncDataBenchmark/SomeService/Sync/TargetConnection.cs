using Npgsql;

namespace SomeService.Sync;

/// <summary>The target connections' settings, for the service's data source and a generated table's own (Tables/Generated).</summary>
public static class TargetConnection
{
    /// <summary>
    /// Every target connection, the run's included, gets Sync:DatabaseCommandTimeoutSeconds as its Command Timeout: a
    /// library's COPY whose importer we never see (EFBulk, Linq2DB, Linq2DBCopy) times out by the connection's setting, Npgsql's 30 s otherwise.
    /// </summary>
    public static void Configure(SyncOptions options, NpgsqlConnectionStringBuilder connection) =>
        connection.CommandTimeout = options.DatabaseCommandTimeoutSeconds;
}
