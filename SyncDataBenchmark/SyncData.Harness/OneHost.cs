namespace SyncData.Harness;

/// <summary>One host: a throwaway cluster holding both databases, everything on 127.0.0.1.</summary>
public static class OneHost
{
    /// <summary>The cluster (on <see cref="LabDatabases.TmpfsDirectory"/> with durability off when <paramref name="tmpfs"/>) and its two empty databases.</summary>
    public static async Task<LabDatabases> StartAsync(bool tmpfs, Action<string> say, CancellationToken ct)
    {
        var serverSettings = LabDatabases.ServerSettings(tmpfs);
        say(tmpfs
            ? $"Starting a throwaway PostgreSQL cluster on {LabDatabases.TmpfsDirectory} ({string.Join(", ", serverSettings.Select(s => $"{s.Key}={s.Value}"))})…"
            : "Starting a throwaway PostgreSQL cluster…");
        var postgres = await LocalPostgres.StartAsync(serverSettings, tmpfs ? LabDatabases.TmpfsDirectory : null, ct);
        try
        {
            await postgres.CreateDatabaseAsync(Lab.SourceDatabase, ct);
            await postgres.CreateDatabaseAsync(Lab.TargetDatabase, ct);
        }
        catch
        {
            await postgres.DisposeAsync();
            throw;
        }

        var (source, target) = (postgres.ConnectionString(Lab.SourceDatabase), postgres.ConnectionString(Lab.TargetDatabase));
        return new LabDatabases(source, target, new PeerPlacement(null, source, target)) { PostgresSettings = serverSettings, Owned = [postgres] };
    }
}
