using Microsoft.Extensions.Options;
using Npgsql;
using SomeService.Fetch;
using SomeService.Sync;
using SomeService.Tables;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A lab for the change tracking (issue 39): the source with <see cref="UsersRows"/> users and <see cref="OrdersRows"/>
/// orders and its change log (Lab.PrepareDatabasesAsync applies sql/change-tracking.sql and sql/changes.sql), both
/// services running. The tests change the source as they go and read only relative states (a watermark they took).
/// </summary>
public sealed class ChangesLab : LabFixture
{
    public const long UsersRows = 2_000;
    public const int OrdersRows = 400;

    protected override long SeedRows => UsersRows;

    protected override Task PrepareDatabasesAsync() => Lab.ScalarAsync(SourceDb, "select seed_orders($1, 1)", [OrdersRows]);

    /// <summary>The source's current snapshot: a watermark as a sync would store it.</summary>
    public async Task<string> WatermarkAsync() => (string)(await Lab.ScalarAsync(SourceDb, "select pg_current_snapshot()::text"))!;

    /// <summary>change_&lt;table&gt;(share, seed) on the source, committed.</summary>
    public async Task<ChangeCounts> ChangeAsync(SyncTable table, double share, int seed)
    {
        await using var source = NpgsqlDataSource.Create(SourceDb);
        return await ChangedBaseline.ChangeSourceAsync(source, table, share, seed, CancellationToken.None);
    }

    /// <summary>One text column of a query's rows, on the source.</summary>
    public async Task<List<string>> TextsAsync(string sql, params object[] parameters)
    {
        await using var connection = new NpgsqlConnection(SourceDb + ";Pooling=false");
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var parameter in parameters)
        {
            command.Parameters.Add(new() { Value = parameter });
        }

        var texts = new List<string>();
        await using var reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            texts.Add(reader.GetString(0));
        }

        return texts;
    }

    /// <summary>
    /// A run (or none, <paramref name="run"/> null) as SomeService hands it to a consumer, asking the lab's source for
    /// what changed in <paramref name="table"/> since <paramref name="since"/>.
    /// </summary>
    public ConsumerRun ChangesRun(string fetch, SyncTable table, string? since, Guid? run = null) =>
        new(new SourceClient(SourceClient, Options.Create(new SyncOptions())),
            new SyncRequest(new FetchApproach(fetch), new InsertApproach("EFTypical"), 1000, 1000) { Table = table }, run) { Since = since };

    /// <summary>Every row <paramref name="fetch"/>'s own consumer reads for <paramref name="run"/>.</summary>
    public static async Task<List<TRow>> ReadAllAsync<TRow>(string fetch, ConsumerRun run, RowTable<TRow> table)
        where TRow : class
    {
        var consumer = (IFetchConsumer)Activator.CreateInstance(global::SomeService.ApproachRegistry.Consumers[new FetchApproach(fetch)])!;
        var rows = new List<TRow>();
        await foreach (var row in consumer.ReadAsync(run, table, CancellationToken.None))
        {
            rows.Add(row);
        }

        return rows;
    }

    /// <summary>A users row as text, every column, for comparing rows read different ways.</summary>
    public static string Text(User u) => FormattableString.Invariant($"{u.Id}|{u.Name}|{u.Patronymic}|{u.Surname}|{u.CreatedAt:O}|{u.IsActive}");

    /// <summary>The same text for the users rows a query on the source returns (its columns in the table's order).</summary>
    public async Task<List<string>> UserTextsAsync(string sql, params object[] parameters)
    {
        await using var connection = new NpgsqlConnection(SourceDb + ";Pooling=false");
        await connection.OpenAsync();
        await using var command = new NpgsqlCommand(sql, connection);
        foreach (var parameter in parameters)
        {
            command.Parameters.Add(new() { Value = parameter });
        }

        var texts = new List<string>();
        await using var reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            texts.Add(Text(new User
            {
                Id = reader.GetGuid(0), Name = reader.GetString(1), Patronymic = reader.GetString(2), Surname = reader.GetString(3),
                CreatedAt = reader.GetDateTime(4), IsActive = reader.GetBoolean(5),
            }));
        }

        return texts;
    }
}

[CollectionDefinition(Name)]
public sealed class ChangesCollection : ICollectionFixture<ChangesLab>
{
    public const string Name = "changes";
}
