using Npgsql;
using SomeService.Tables;
using SyncData.Model;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Databases only, no services: a source holding the awkward users (<see cref="AwkwardLab.Rows"/>) and the seeded plus
/// awkward orders (as <see cref="OrdersLab"/>), and a target the merge writers are called on directly.
/// </summary>
public sealed class MergeWriterLab : IAsyncLifetime
{
    public LabDatabases Databases { get; private set; } = null!;
    public string SourceDb => Databases.SourceDb;
    public string TargetDb => Databases.TargetDb;

    public async Task InitializeAsync()
    {
        LabSweeper.Sweep();
        Databases = await OneHost.StartAsync(tmpfs: false, _ => { }, CancellationToken.None);
        await Lab.PrepareDatabasesAsync(SourceDb, TargetDb, seedRows: 0);
        await WriteAwkwardUsersAsync();
        await Lab.ScalarAsync(SourceDb, "select seed_orders($1, 1)", [OrdersLab.SeededRows]);
        await Lab.ScalarAsync(SourceDb, await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", "awkward-orders.sql")));
    }

    public async Task DisposeAsync() => await LabDatabases.DisposeAllAsync(Databases);

    /// <summary>The target's <paramref name="table"/> made equal to the source's, then drifted (Fixtures/merge-drift-&lt;table&gt;.sql).</summary>
    /// <returns>The keys of the rows a change fetch would deliver, and the keys it would report deleted.</returns>
    public async Task<(IReadOnlyList<string> Changed, IReadOnlyList<string> Deleted)> DriftTargetAsync(SyncTable table)
    {
        var rows = await CopyOutAsync(SourceDb, table.CopyOutBinary);
        await using var target = await OpenAsync(TargetDb);
        await using (var truncate = new NpgsqlCommand($"truncate {table.Name}", target))
        {
            await truncate.ExecuteNonQueryAsync();
        }

        await using (var copy = await target.BeginRawBinaryCopyAsync(table.CopyInBinary))
        {
            await copy.WriteAsync(rows);
        }

        var changed = new HashSet<string>();
        var deleted = new List<string>();
        await using var drift = new NpgsqlCommand(await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", $"merge-drift-{table.Name}.sql")), target);
        await using var reader = await drift.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            (reader.GetString(1) == "deleted" ? (ICollection<string>)deleted : changed).Add(reader.GetString(0));
        }

        return ([.. changed], deleted);
    }

    /// <summary>The source's binary COPY body of the whole table, or of the rows with these keys (what a change fetch sends).</summary>
    public Task<byte[]> SourceCopyAsync(SyncTable table, IReadOnlyList<string>? keys)
    {
        // The keys are uuid or bigint text the drift script printed: safe to inline, which COPY needs (it takes no parameters).
        var sql = keys is null
            ? table.CopyOutBinary
            : $"COPY (select {table.Columns} from {table.Name} where id::text = any ('{{{string.Join(",", keys)}}}'::text[])) TO STDOUT (FORMAT binary)";
        return CopyOutAsync(SourceDb, sql);
    }

    /// <summary>A connection as SomeService opens one: from a data source with the model's type mappings (the orders' enum).</summary>
    public static async Task<NpgsqlConnection> OpenAsync(string connectionString)
    {
        var builder = new NpgsqlDataSourceBuilder(connectionString + ";Pooling=false");
        SyncDbContext.MapTypes(builder);
        // The data source only hands out this one unpooled connection; it has nothing else to release.
        var dataSource = builder.Build();
        return await dataSource.OpenConnectionAsync();
    }

    private static async Task<byte[]> CopyOutAsync(string connectionString, string copyCommand)
    {
        await using var connection = await OpenAsync(connectionString);
        var bytes = new MemoryStream();
        await using (var copy = await connection.BeginRawBinaryCopyAsync(copyCommand))
        {
            await copy.CopyToAsync(bytes);
        }

        return bytes.ToArray();
    }

    private async Task WriteAwkwardUsersAsync()
    {
        await using var connection = await OpenAsync(SourceDb);
        await using var importer = await connection.BeginBinaryImportAsync(SyncTable.Users.CopyInBinary);
        foreach (var user in AwkwardLab.Rows)
        {
            UsersRowTable.Instance.Write(importer, user);
        }

        await importer.CompleteAsync();
    }
}
