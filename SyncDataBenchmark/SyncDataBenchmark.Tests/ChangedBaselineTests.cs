using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// The harness's ChangedBaseline, what every changed-mode run starts from: the target equal to the source at one
/// instant with that instant as its watermark, then the source changed by the share, so that what changed since the
/// watermark is exactly what the generator did and everything else is equal on both sides.
/// </summary>
[Collection(ChangesCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ChangedBaselineTests(ChangesLab lab)
{
    [Theory]
    [InlineData("users")]
    [InlineData("orders")]
    public async Task The_copy_leaves_the_target_equal_to_the_source_with_the_watermark_stored(string name)
    {
        var table = SyncTable.Named(name);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, table, await Lab.ReadChecksumAsync(lab.SourceDb, table));
        await using var source = NpgsqlDataSource.Create(lab.SourceDb);
        await using var target = NpgsqlDataSource.Create(lab.TargetDb);

        var watermark = await ChangedBaseline.CopyWithWatermarkAsync(source, target, table, CancellationToken.None);

        Assert.Equal(await Lab.ReadChecksumAsync(lab.SourceDb, table), await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.Equal(watermark, await StoredWatermarkAsync(name));
        Assert.Empty(await lab.TextsAsync($"select id::text from changed_{name}($1::pg_snapshot)", watermark));
    }

    [Theory]
    [InlineData("users", 0.05)]
    [InlineData("orders", 0.1)]
    public async Task After_the_prepare_what_changed_since_the_watermark_is_the_change_and_the_rest_is_equal(string name, double share)
    {
        var table = SyncTable.Named(name);
        await using var source = NpgsqlDataSource.Create(lab.SourceDb);
        await using var target = NpgsqlDataSource.Create(lab.TargetDb);

        var counts = await ChangedBaseline.PrepareAsync(source, target, table, share, 7, CancellationToken.None);

        var watermark = await StoredWatermarkAsync(name);
        var changed = await lab.TextsAsync($"select id::text from changed_{name}($1::pg_snapshot)", watermark);
        var deleted = await lab.TextsAsync($"select key::text from deleted_{name}($1::pg_snapshot) as key", watermark);
        Assert.Equal(counts.Updated + counts.Inserted, changed.Count);
        Assert.Equal(counts.Deleted, deleted.Count);

        // Every row the change did not touch is the same on both sides; the touched ones are the target's old state.
        var (sourceNow, targetNow) = (await Lab.ReadChecksumAsync(lab.SourceDb, table), await Lab.ReadChecksumAsync(lab.TargetDb, table));
        Assert.NotEqual(sourceNow, targetNow);
        Assert.Equal(targetNow.Rows + counts.Inserted - counts.Deleted, sourceNow.Rows);
        string[] touched = [.. changed, .. deleted];
        var untouched = $"select concat_ws(' ', count(*), coalesce(sum({table.RowChecksumExpression}), 0)) from {name} where not (id::text = any($1))";
        Assert.Equal(await Lab.ScalarAsync(lab.SourceDb, untouched, [touched]), await Lab.ScalarAsync(lab.TargetDb, untouched, [touched]));
        Assert.Equal(counts.Updated + counts.Deleted,
            (long)(await Lab.ScalarAsync(lab.TargetDb, $"select count(*) from {name} where id::text = any($1)", [touched]))!);
    }

    private async Task<string> StoredWatermarkAsync(string table) =>
        (string)(await Lab.ScalarAsync(lab.TargetDb, "select snapshot::text from sync_watermarks where table_name = $1", [table]))!;
}
