using Npgsql;
using SyncData.Harness;

namespace SyncDataBenchmark.Tests;

/// <summary>A database of a test class's own on a lab's cluster: dropped if there, created, given the schema and the generators.</summary>
public static class ScratchDatabase
{
    /// <summary>Returns its connection string, unpooled: recreating it ends the connections a pool would hand out again.</summary>
    public static async Task<string> RecreateAsync(LocalPostgres postgres, string name)
    {
        await using (var connection = new NpgsqlConnection(postgres.ConnectionString("postgres")))
        {
            await connection.OpenAsync();
            await using var create = new NpgsqlCommand($"drop database if exists {name} with (force); create database {name}", connection);
            await create.ExecuteNonQueryAsync();
        }

        var db = postgres.ConnectionString(name) + ";Pooling=false";
        await SqlScripts.ApplySchemaAsync(db, withGenerator: true);
        return db;
    }
}
