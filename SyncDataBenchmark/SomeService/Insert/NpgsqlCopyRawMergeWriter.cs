using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyRawMerge: the source's binary COPY body relayed byte for byte into a temporary staging table
/// (<see cref="RawBinaryCopy"/>: parsed by no one but the target's PostgreSQL, so every value arrives exactly, numeric
/// beyond .NET's decimal included; the COPY is Cancelled on any failure, since Npgsql's raw stream commits it on
/// Dispose), then the same MERGE and deletes as NpgsqlCopyMerge (<see cref="MergeSql"/>), all in the run's transaction.
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyRawMerge", Library = "Npgsql's raw binary copy")]
public sealed class NpgsqlCopyRawMergeWriter : ICopyBytesMergeWriter
{
    public async Task<long?> MergeAsync(Stream binaryCopy, MergeScope scope, WriteTarget target, CancellationToken ct)
    {
        var sql = await MergeSql.ForAsync(target, ct);
        await sql.CreateStagingAsync(ct);
        await RawBinaryCopy.RelayAsync(binaryCopy, target, sql.CopyIntoStaging, ct);
        await sql.ApplyStagedAsync(scope, ct);
        // Uncounted, as NpgsqlCopyRaw: a raw COPY reports no row count, and the MERGE's leaves out the rows already equal.
        return null;
    }
}
