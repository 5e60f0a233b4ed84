namespace SyncData.Shared;

/// <summary>
/// How SyncDataSource tells its consumer why a stream broke after the headers went out (when a status code can no
/// longer say it): it writes this marker and one line of explanation into the body, then aborts. The marker starts
/// with an ASCII record separator, which is neither valid JSON nor a valid COPY field count, so no row can be taken
/// for it; the consumer that meets it reports the line, not just "the stream broke".
/// </summary>
public static class SourceFailure
{
    public const string Marker = "\u001eSyncDataSource failed: ";

    /// <summary>The explanation following the marker in <paramref name="tail"/> (the last bytes received), or null.</summary>
    public static string? FindExplanation(ReadOnlySpan<byte> tail)
    {
        var marker = System.Text.Encoding.UTF8.GetBytes(Marker);
        var at = tail.LastIndexOf(marker);
        if (at < 0)
        {
            return null;
        }

        var rest = tail[(at + marker.Length)..];
        var end = rest.IndexOf((byte)'\n');
        return System.Text.Encoding.UTF8.GetString(end < 0 ? rest : rest[..end]);
    }
}
