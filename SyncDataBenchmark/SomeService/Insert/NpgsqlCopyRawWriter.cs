using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// NpgsqlCopyRaw: relays the source's binary COPY body byte for byte into COPY FROM STDIN, parsing nothing
/// (<see cref="RawBinaryCopy"/>: it Cancels the COPY on any failure, since Npgsql's raw stream commits it on Dispose).
/// </summary>
[Approach(ApproachKind.Insert, "NpgsqlCopyRaw", Library = "Npgsql's raw binary copy")]
public sealed class NpgsqlCopyRawWriter : ICopyBytesWriter
{
    public async Task<long?> WriteAsync(Stream binaryCopy, WriteTarget target, CancellationToken ct)
    {
        await RawBinaryCopy.RelayAsync(binaryCopy, target, target.Table.CopyInBinary, ct);
        return null;
    }
}
