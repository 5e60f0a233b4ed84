using System.Globalization;
using SyncData.Shared;

namespace SyncDataSource.Fetches;

/// <summary>
/// The watermark a change request names (<see cref="SourceRoutes.Since"/>): a pg_snapshot's text, checked by
/// PostgreSQL's own rules (pg_snapshot_in: xmin and xmax non-zero, xmin ≤ xmax, each in-progress id from xmin to
/// before xmax, ascending) so that a bad one is a 400 naming it, never a server error, and the text that passes is
/// digits, colons and commas only (NpgsqlCopyChanges writes it into its COPY statement: COPY takes no parameters).
/// </summary>
public static class SinceParameter
{
    /// <summary>The watermark, or null and an error under <see cref="SourceRoutes.Since"/>.</summary>
    public static string? Parse(string? since, Dictionary<string, string[]> errors)
    {
        if (since is null)
        {
            errors[SourceRoutes.Since] = [$"'{SourceRoutes.Since}' is required: the watermark of the last sync, a snapshot as pg_current_snapshot() prints it (xmin:xmax:xip,…)."];
            return null;
        }

        if (IsSnapshot(since))
        {
            return since;
        }

        errors[SourceRoutes.Since] = [$"'{QueryParameter.Truncate(since)}' is not valid for '{SourceRoutes.Since}': a snapshot as pg_current_snapshot() prints it, xmin:xmax:xip,… (0 < xmin ≤ xmax, each xip from xmin to before xmax, ascending)."];
        return null;
    }

    private static bool IsSnapshot(string text)
    {
        var parts = text.Split(':');
        if (parts.Length != 3 || !TryParseId(parts[0], out var xmin) || !TryParseId(parts[1], out var xmax) || xmin == 0 || xmax < xmin)
        {
            return false;
        }

        var last = xmin;
        foreach (var part in parts[2].Length == 0 ? [] : parts[2].Split(','))
        {
            if (!TryParseId(part, out var xip) || xip < last || xip >= xmax)
            {
                return false;
            }

            last = xip;
        }

        return true;
    }

    private static bool TryParseId(string digits, out ulong id) =>
        ulong.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out id) && digits.Length <= 20;
}
