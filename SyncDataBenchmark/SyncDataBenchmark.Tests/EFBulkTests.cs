using Npgsql;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// What EFCore.BulkExtensions does on its own that the other writers do explicitly: its COPY's timeout. The library
/// never sets its importer's timeout (BulkCopyTimeout is ignored on PostgreSQL), so the COPY times out by the
/// connection's Command Timeout (Npgsql's 30 s, or the connection string's) unless SomeService sets it.
/// </summary>
[Collection(InProcessCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class EFBulkTests(InProcessLab lab)
{
    /// <summary>The Command Timeout SomeService's connection string asks for here: the library would be cut by it.</summary>
    private const int ConnectionStringTimeoutSeconds = 3;

    /// <summary>Longer than that, far shorter than Sync:DatabaseCommandTimeoutSeconds (SomeService's own).</summary>
    private const int StallSeconds = 7;

    [Fact]
    public async Task A_chunk_whose_COPY_waits_longer_than_the_connection_strings_Command_Timeout_is_not_cut()
    {
        await Lab.MakeTargetDifferAsync(lab.TargetDb, await Lab.ReadChecksumAsync(lab.SourceDb));
        // A statement trigger on the target stalls the first COPY (the table is empty only then, after the run's
        // truncate) before PostgreSQL reads its rows: the client has sent the chunk and waits for the COPY to finish.
        await Lab.ScalarAsync(lab.TargetDb, $"""
            create function stall_first_insert() returns trigger language plpgsql as $$
            begin
              if not exists (select from users) then perform pg_sleep({StallSeconds}); end if;
              return null;
            end $$
            """);
        await Lab.ScalarAsync(lab.TargetDb, "create trigger stall_first_insert before insert on users for each statement execute function stall_first_insert()");
        try
        {
            await using var source = lab.Source();
            var target = new NpgsqlConnectionStringBuilder(lab.TargetDb) { CommandTimeout = ConnectionStringTimeoutSeconds };
            await using var someService = lab.SomeService(source, new Dictionary<string, string?> { ["ConnectionStrings:Target"] = target.ConnectionString });

            var run = await InProcessLab.SyncAsync(someService.CreateClient(), "NpgsqlCopy", "EFBulk");

            Assert.True(run.Status == RunStatus.Succeeded && run.Verified, $"{run.Status}: {run.Error}");
            Assert.Equal(InProcessLab.Rows, run.Rows);
            Assert.True(run.DurationMs >= StallSeconds * 1000, $"the COPY did not stall: {run.DurationMs} ms");
            Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb), await Lab.ReadChecksumAsync(lab.TargetDb));
        }
        finally
        {
            await Lab.ScalarAsync(lab.TargetDb, "drop function stall_first_insert() cascade");
        }
    }
}
