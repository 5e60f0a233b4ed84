using SomeService;
using SomeService.Insert;
using SyncData.Harness;
using SyncData.Shared;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>A source of more rows than three of ArrowStream's record batches hold (16,384 each), so every run crosses batch boundaries.</summary>
public sealed class ArrowLab : LabFixture
{
    public const long Rows = 40_003;

    /// <summary>The row planted with a timestamp: the 20,000th by id; updated, it moves to the heap's end, the source's last batch.</summary>
    public const int PlantedOffset = 19_999;

    protected override long SeedRows => Rows;

    /// <summary>
    /// Sets created_at of the planted row, the <paramref name="later"/>-th after it, or <paramref name="id"/>, to a
    /// timestamp literal; returns its id.
    /// </summary>
    public async Task<Guid> PlantCreatedAtAsync(string value, Guid? id = null, int later = 0) =>
        (Guid)(await Lab.ScalarAsync(SourceDb,
            $"update users set created_at = $1::text::timestamp where id = coalesce($2::text::uuid, (select id from users order by id offset {PlantedOffset + later} limit 1)) returning id",
            [value, (object?)id?.ToString() ?? DBNull.Value]))!;

    public async Task<string> CreatedAtTextAsync(Guid id) =>
        (string)(await Lab.ScalarAsync(TargetDb, "select created_at::text from users where id = $1::text::uuid", [id.ToString()]))!;
}

[CollectionDefinition(Name)]
public sealed class ArrowCollection : ICollectionFixture<ArrowLab>
{
    public const string Name = "arrow";
}

/// <summary>
/// ArrowStream into every writer, across record batches (the raw relays fed the batches encoded as COPY): every row
/// arrives, every legal timestamp arrives exactly or fails the run naming the row, the column and the value (the ones
/// DateTime cannot hold named by SomeService on the row path, the ones Arrow's timestamp[us] cannot hold by
/// SyncDataSource, mid-stream, after a batch went out).
/// </summary>
[Collection(ArrowCollection.Name)]
[Trait("Tier", "Lab")]
public sealed class ArrowStreamTests(ArrowLab lab)
{
    private const string Fetch = "ArrowStream";

    /// <summary>Every insert approach: those that take rows, and the raw relays, fed the batches encoded as COPY.</summary>
    private static IEnumerable<string> WriterNames => ApproachRegistry.Writers.Keys.Select(w => w.Name).Order(StringComparer.Ordinal);

    public static TheoryData<string> Writers() => new(WriterNames);

    private static bool TakesCopyBytes(string insert) => ApproachRegistry.Catalog[new InsertApproach(insert)].CopyBytes;

    [Fact]
    public void The_fetch_is_found_by_enumeration_and_runs_into_every_writer()
    {
        var runnable = ApproachRegistry.Catalog.RunnableCombinations.Where(c => c.Fetch.Name == Fetch).Select(c => c.Insert.Name);
        Assert.Equal(WriterNames, runnable.Order(StringComparer.Ordinal));
        Assert.Contains(WriterNames, TakesCopyBytes);
    }

    /// <summary>±infinity (int64 max/min on the wire), the edges just inside DateTime, and a microsecond before Arrow's epoch.</summary>
    public static readonly string[] Carried = ["infinity", "-infinity", "0001-01-01 00:00:00.000001", "9999-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999"];

    /// <summary>
    /// Every row, across the batches, into every writer, with each of <see cref="Carried"/> planted in a row of its own
    /// (one run a writer carries them all): the run verifies, the target's checksum is the source's, and each planted
    /// timestamp reads back as it was written.
    /// </summary>
    [Theory]
    [MemberData(nameof(Writers))]
    public async Task Every_row_and_every_carried_timestamp_cross_the_batches_into_every_writer_exactly(string insert)
    {
        await using var planted = await PlantedTimestamps.PlantAsync(lab.PlantCreatedAtAsync, Carried);
        var source = await Lab.ReadChecksumAsync(lab.SourceDb);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, source);

        var run = await lab.SyncAsync(Fetch, insert);

        Assert.True(run.Verified, $"{run.Status}: {run.Error}");
        Assert.Equal(ArrowLab.Rows, run.Rows);
        Assert.Equal(source, await Lab.ReadChecksumAsync(lab.TargetDb));
        Assert.True(run.BodyBytes > ArrowLab.Rows * 40, $"{run.BodyBytes} body bytes for {ArrowLab.Rows} rows");
        foreach (var (id, value) in planted.Rows)
        {
            Assert.Equal(value, await lab.CreatedAtTextAsync(id));
        }
    }

    [Theory]
    [InlineData(BodyCompression.Gzip)]
    [InlineData(BodyCompression.Brotli)]
    public async Task The_labs_compression_applies_to_the_arrow_body(string compression)
    {
        var source = await Lab.ReadChecksumAsync(lab.SourceDb);
        await Lab.MakeTargetDifferAsync(lab.TargetDb, source);

        var run = await lab.SyncAsync(Fetch, "NpgsqlCopy", compression: compression);

        Assert.True(run.Verified, $"{run.Status}: {run.Error}");
        Assert.Equal(compression, run.Compression);
        Assert.True(run.WireBytes < run.BodyBytes * 0.8, $"{run.WireBytes} bytes on the wire for a {run.BodyBytes}-byte body");
    }

    /// <summary>
    /// Arrow carries these; .NET's DateTime, which the rows are made of, cannot (0001-01-01 00:00:00 is DateTime.MinValue:
    /// -infinity): a row writer's run fails naming them in SomeService, the columns encoded as COPY carry them exactly.
    /// </summary>
    public static TheoryData<string> DateTimeCannotHold => new() { "0001-01-01 00:00:00", "4713-11-24 00:00:00 BC", "0001-12-31 23:59:59.999999 BC", "294247-01-10 04:00:54.775806" };

    [Theory]
    [MemberData(nameof(DateTimeCannotHold))]
    public Task A_timestamp_DateTime_cannot_hold_fails_rows_by_name_and_crosses_the_COPY_encoding_exactly(string value) =>
        // The row writers fail alike where the row is made, before any of them holds it: one per value, turning, and every relay.
        WithPlantedAsync(value, Consumers.ForAValueNoRowHolds(Consumers.TurnOf(DateTimeCannotHold, value)).Where(c => c.Fetch == Fetch).Select(c => c.Insert), async (id, insert, run) =>
        {
            if (TakesCopyBytes(insert))
            {
                Assert.True(run.Verified, $"{insert}: {run.Error}");
                Assert.Equal(value, await lab.CreatedAtTextAsync(id));
            }
            else
            {
                await AssertFailedNamingAsync(run, insert, $"row {id}: created_at = {value} cannot be carried by a parsed");
            }
        });

    /// <summary>
    /// Past <see cref="SyncData.Arrow.ArrowFormat.LastCarriedTimestamp"/> the shift to Arrow's epoch overflows or meets the
    /// value that means infinity: the source refuses the row after its first batch went out, and says why after the
    /// end-of-stream marker, whatever the writer. The source fails alike whatever reads it: the values share the writers
    /// out, turn about, so that every writer meets a mid-stream failure once.
    /// </summary>
    public static TheoryData<string> ArrowCannotHold => new() { "294247-01-10 04:00:54.775807", "294276-12-31 23:59:59.999999" };

    [Theory]
    [MemberData(nameof(ArrowCannotHold))]
    public Task A_timestamp_Arrow_cannot_hold_fails_mid_stream_by_name_in_SyncDataSource(string value) =>
        WithPlantedAsync(value, WriterNames.Where((_, i) => i % ArrowCannotHold.Count == Consumers.TurnOf(ArrowCannotHold, value)), async (id, insert, run) =>
        {
            await AssertFailedNamingAsync(run, insert, $" rows: row {id}: created_at = {value} cannot be carried as an Arrow timestamp[us]");
            // Mid-stream: at least one whole batch had gone out before the source met the row.
            var before = System.Text.RegularExpressions.Regex.Match(run.Error!, "SyncDataSource's users/arrow broke after ([0-9,]+) rows");
            Assert.True(before.Success && long.Parse(before.Groups[1].Value.Replace(",", "")) >= 16_384, run.Error);
        });

    private async Task AssertFailedNamingAsync(RunResult run, string insert, string expected)
    {
        Assert.True(run.Status == RunStatus.Failed, $"{insert}: {run.Status}");
        Assert.True(run.Error?.Contains(expected, StringComparison.Ordinal) == true, $"{insert}: {run.Error}");
        Assert.Equal(1, (await Lab.ReadChecksumAsync(lab.TargetDb)).Rows); // rolled back: only the sentinel row
    }

    /// <summary>Plants <paramref name="value"/> past the first batch, runs ArrowStream into <paramref name="writers"/>, checks each run, restores the row.</summary>
    private async Task WithPlantedAsync(string value, IEnumerable<string> writers, Func<Guid, string, RunResult, Task> check)
    {
        var id = await lab.PlantCreatedAtAsync(value);
        try
        {
            var source = await Lab.ReadChecksumAsync(lab.SourceDb);
            foreach (var insert in writers)
            {
                await Lab.MakeTargetDifferAsync(lab.TargetDb, source);
                await check(id, insert, await lab.SyncAsync(Fetch, insert));
            }
        }
        finally
        {
            await lab.PlantCreatedAtAsync("2025-01-01 00:00:00", id);
        }
    }
}
