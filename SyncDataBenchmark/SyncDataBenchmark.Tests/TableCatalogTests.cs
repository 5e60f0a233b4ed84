using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Postgres.Catalog;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A team's own table (Fixtures/team-table.sql: a schema the code does not name, every awkward type), described from
/// its database's catalog through a role that may only read it, created alike in another database from that
/// description, copied by binary COPY, and proved equal by the description's checksum over every column; the checksum
/// tells apart what a text comparison would merge and holds whatever the sessions' settings.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class TableCatalogTests(InProcessLab lab) : IAsyncLifetime
{
    private const string Table = "\"Team Sales\".\"Order Lines\"";
    private const string Reader = "team_reader";
    private string _source = null!;
    private string _target = null!;

    public async Task InitializeAsync()
    {
        _source = await ScratchDatabase.RecreateAsync(lab.Postgres, "team_source");
        _target = await ScratchDatabase.RecreateAsync(lab.Postgres, "team_target");
        await Lab.ScalarAsync(_source, await File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", "team-table.sql")));
        await Lab.ScalarAsync(_source, $"""
            do $$ begin if not exists (select from pg_roles where rolname = '{Reader}') then create role {Reader} login; end if; end $$;
            grant usage on schema "Team Sales" to {Reader};
            grant select on {Table} to {Reader};
            """);
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Fact]
    public async Task A_read_only_role_describes_the_table_and_its_like_holds_an_exact_copy()
    {
        var description = await DescribeAsync();
        Assert.Equal(["region", "order", "LineNo"], description.PrimaryKey);
        Assert.DoesNotContain(description.CopyColumns, c => c.Name == "total_with_tax");
        Assert.Contains(description.LeftOut, why => why.Contains("foreign key", StringComparison.Ordinal));
        Assert.Equal(2, description.Types.Count);

        await Lab.ScalarAsync(_target, description.CreateSql);
        await CopyAsync(description);
        var source = await ChecksumAsync(_source, description);
        Assert.Equal(4L, source.Rows);
        Assert.Equal(source, await ChecksumAsync(_target, description));
        // The target is the table's like: the same description, read back from the target's catalog.
        await using var target = new NpgsqlConnection(_target);
        await target.OpenAsync();
        Assert.Equal(description.CreateSql, (await TableCatalog.ReadAsync(target, Table)).CreateSql);
    }

    [Theory]
    [InlineData("span = '30 days'", "span = '1 mon'")]
    [InlineData("\"order\" = 1 and region = 1", "addr = '192.168.0.1'")]
    [InlineData("\"order\" = 1 and region = 1", "ratio = 0")]
    [InlineData("\"order\" = 2 and region = 1", "note = null")]
    [InlineData("\"order\" = 1 and region = 2", "note = ''")]
    [InlineData("\"order\" = 2 and region = 2", "seen = '2024-06-01 06:30:00.000001+00'")]
    [InlineData("\"order\" = 1 and region = 1", "doc = '{\"a\": [1e400], \"b\": 2}'")]
    public async Task The_checksum_tells_apart_any_changed_value(string row, string change)
    {
        var description = await DescribeAsync();
        await Lab.ScalarAsync(_target, description.CreateSql);
        await CopyAsync(description);
        var before = await ChecksumAsync(_target, description);
        await Lab.ScalarAsync(_target, $"update {Table} set {change} where {row}");
        var after = await ChecksumAsync(_target, description);
        // The seen change is the same instant written in another zone: a value equal to the old, so the sum must not move.
        Assert.True(change.StartsWith("seen", StringComparison.Ordinal) ? before == after : before != after, $"{change}: {before} then {after}");
    }

    [Fact]
    public async Task The_checksum_does_not_depend_on_the_sessions_settings()
    {
        var description = await DescribeAsync();
        var plain = await ChecksumAsync(_source, description);
        await using var connection = new NpgsqlConnection(_source);
        await connection.OpenAsync();
        await using (var settings = new NpgsqlCommand("set DateStyle = 'SQL, DMY'; set IntervalStyle = 'iso_8601'; set TimeZone = 'Asia/Kolkata'; " +
                                                      "set extra_float_digits = -3; set bytea_output = 'escape'", connection))
        {
            await settings.ExecuteNonQueryAsync();
        }

        Assert.Equal(plain, await connection.ReadChecksumAsync(description, null, CancellationToken.None));
    }

    private async Task<TableDescription> DescribeAsync()
    {
        await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(_source) { Username = Reader, Password = null }.ConnectionString);
        await connection.OpenAsync();
        return await TableCatalog.ReadAsync(connection, Table);
    }

    private async Task CopyAsync(TableDescription description)
    {
        await using var from = new NpgsqlConnection(_source);
        await using var to = new NpgsqlConnection(_target);
        await from.OpenAsync();
        await to.OpenAsync();
        await using (var truncate = new NpgsqlCommand($"truncate {description.QualifiedName}", to))
        {
            await truncate.ExecuteNonQueryAsync();
        }

        await using var reader = await from.BeginRawBinaryCopyAsync(description.CopyOutBinary);
        await using var writer = await to.BeginRawBinaryCopyAsync(description.CopyInBinary);
        await reader.CopyToAsync(writer);
    }

    private static async Task<SyncData.Shared.TableChecksum> ChecksumAsync(string db, TableDescription description)
    {
        await using var connection = new NpgsqlConnection(db);
        await connection.OpenAsync();
        return await connection.ReadChecksumAsync(description, null, CancellationToken.None);
    }
}
