using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyRawTuned: the NpgsqlCopyRaw relay (the source's binary COPY bytes, parsed by no one but the target's
/// PostgreSQL) inside the same "Populating a Database" preparation as NpgsqlCopyTuned (<see cref="TunedLoad"/>:
/// primary key dropped and re-added, maintenance_work_mem, COPY … FREEZE, all in the run's one transaction). Runs only
/// with a fetch that delivers COPY bytes; carries every value exactly, as the relay does.
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyRawTuned", Library = "Npgsql's raw binary copy")]
public sealed class NpgsqlCopyRawTunedWriter : ICopyBytesWriter
{
    public Task<long?> WriteAsync(Stream binaryCopy, WriteTarget target, CancellationToken ct) =>
        TunedLoad.CopyAsync(target, async copyCommand =>
        {
            await RawBinaryCopy.RelayAsync(binaryCopy, target, copyCommand, ct);
            return null;
        }, ct);
}
