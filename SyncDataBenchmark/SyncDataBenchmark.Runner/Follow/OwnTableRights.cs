using Npgsql;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// What --follow on a user's table (--follow-install, --follow-publication) needs of the connecting role, checked
/// before anything is installed (own-table-rights.sql, catalog reads only): wal_level=logical, REPLICATION or superuser
/// for the slot, SELECT for the first copy, and, when the lab creates the publication, ownership of the table and CREATE
/// on the database; with the user's publication, that it publishes the table. Each right missing is named.
/// </summary>
public static class OwnTableRights
{
    /// <summary>
    /// Before any cluster or service starts (BenchLab): the rights <paramref name="settings"/>' opt-in needs, or an
    /// exception naming each one missing.
    /// </summary>
    public static async Task CheckAsync(BenchSettings settings, string sourceDb, CancellationToken ct)
    {
        var missing = await MissingAsync(sourceDb, settings.OwnTable!, settings.FollowPublication, ct);
        if (missing.Count > 0)
        {
            throw new InvalidOperationException($"--follow cannot run on your table {settings.OwnTable}, nothing was installed: " + string.Join("; ", missing) + ".");
        }
    }

    /// <summary>Each right the role of <paramref name="sourceDb"/> lacks for <paramref name="table"/> (as SQL names it), one sentence each; empty when it has them all.</summary>
    public static async Task<IReadOnlyList<string>> MissingAsync(string sourceDb, string table, string? publication, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(sourceDb);
        await connection.OpenAsync(ct);
        await using var command = new NpgsqlCommand(FollowSql.Read("own-table-rights.sql"), connection);
        command.Parameters.Add(new() { Value = table });
        command.Parameters.Add(new() { Value = (object?)publication ?? DBNull.Value, NpgsqlDbType = NpgsqlTypes.NpgsqlDbType.Text });
        var missing = new List<string>();
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            missing.Add(reader.GetString(0));
        }

        return missing;
    }
}
