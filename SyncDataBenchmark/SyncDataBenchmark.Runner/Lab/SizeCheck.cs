using System.Diagnostics;
using Npgsql;
using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// Before the seed: how much disk and time the asked size will take, from a sample of each table's own seed measured
/// here and rolled back, checked against the free disk of the runner's own clusters. A run that would not fit is
/// refused with the figures unless --no-size-check (issue 62: --rows 2147483647 started seeding hundreds of GB
/// against 74 GB free, with no word of either).
/// </summary>
public static class SizeCheck
{
    /// <summary>Rows seeded (and rolled back) per table for the estimate: enough for the indexes' and TOAST's share, a fraction of a second here.</summary>
    public const int SampleRows = 20_000;

    private static readonly string SampleSql = EmbeddedText.Read(typeof(SizeCheck).Assembly, "Lab/size-sample.sql");

    /// <summary>A table's bytes (heap, TOAST, indexes) and seconds of seeding per row, measured on the sample; and the cluster's max_wal_size.</summary>
    private sealed record Sample(double BytesPerRow, double SecondsPerRow, long MaxWalBytes);

    /// <summary>
    /// Says the estimate for <paramref name="rows"/> rows of each table; throws, with the figures, when it exceeds
    /// the free disk of <paramref name="directories"/> (the runner's clusters; none for --connection's server,
    /// whose disk the runner cannot see) and <paramref name="enforce"/>.
    /// </summary>
    public static async Task CheckAsync(string sourceDb, IReadOnlyList<SyncTable> tables, long rows, IReadOnlyList<string> directories, bool enforce,
        Action<string> say, CancellationToken ct)
    {
        var samples = new List<Sample>();
        foreach (var table in tables.DistinctBy(t => (t.Behind ?? t).Name))
        {
            samples.Add(await SampleAsync(sourceDb, table, ct));
        }

        // The source's copy, the target's, and the WAL a checkpoint lets pile up (the seed's and a run's).
        var tableBytes = samples.Sum(s => s.BytesPerRow) * rows;
        var needed = 2 * tableBytes + samples.Max(s => s.MaxWalBytes);
        var seeding = TimeSpan.FromSeconds(samples.Sum(s => s.SecondsPerRow) * rows);
        var estimate = $"{rows:N0} rows of {string.Join(", ", tables.Select(t => t.Name))}: about {Gb(tableBytes)} in the source and as much in the target, "
                       + $"plus up to {Gb(samples.Max(s => s.MaxWalBytes))} of WAL: ~{Gb(needed)} of disk; seeding ~{Estimator.Format(seeding)} "
                       + $"(from a {SampleRows:N0}-row sample of each table seeded here and rolled back; rough)";
        // Named by the folder the cluster lives in (the system's temp directory, or /dev/shm with --tmpfs).
        var free = directories.Select(d => (Directory: Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(d)) ?? d, Free: new DriveInfo(d).AvailableFreeSpace)).ToList();
        if (free.Count == 0)
        {
            say($"Size: {estimate}. The server is --connection's: its free disk is not checked.");
            return;
        }

        var tightest = free.MinBy(f => f.Free);
        if (needed <= tightest.Free)
        {
            say($"Size: {estimate}; {Gb(tightest.Free)} free on {tightest.Directory}.");
            return;
        }

        var refusal = $"Size: {estimate}; only {Gb(tightest.Free)} free on {tightest.Directory}.";
        if (enforce)
        {
            throw new InvalidOperationException($"{refusal} Refused before seeding: give fewer --rows, or --no-size-check to seed anyway.");
        }

        say($"{refusal} Seeding anyway (--no-size-check).");
    }

    /// <summary>One table's seed of <see cref="SampleRows"/> rows in a transaction rolled back: the existing seed, if any, is untouched.</summary>
    private static async Task<Sample> SampleAsync(string sourceDb, SyncTable table, CancellationToken ct)
    {
        await using var connection = new NpgsqlConnection(sourceDb);
        await connection.OpenAsync(ct);
        await using var transaction = await connection.BeginTransactionAsync(ct);
        var clock = Stopwatch.StartNew();
        await using (var seed = new NpgsqlCommand(SqlScripts.ForTable(table, "seed.sql"), connection, transaction) { CommandTimeout = 0 })
        {
            seed.Parameters.Add(new NpgsqlParameter { Value = SampleRows });
            await seed.ExecuteNonQueryAsync(ct);
        }

        var seconds = clock.Elapsed.TotalSeconds;
        await using var measure = new NpgsqlCommand(SampleSql, connection, transaction);
        measure.Parameters.Add(new NpgsqlParameter { Value = (table.Behind ?? table).SqlName });
        await using var reader = await measure.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        var sample = new Sample(reader.GetInt64(0) / (double)SampleRows, seconds / SampleRows, reader.GetInt64(1));
        await reader.CloseAsync();
        await transaction.RollbackAsync(ct);
        return sample;
    }

    private static string Gb(double bytes) => bytes >= 1e9 ? $"{bytes / 1e9:N1} GB" : $"{bytes / 1e6:N0} MB";
}
