using System.Globalization;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A share of the source's rows changed before a run (--changed): a fraction in (0, 1], written "1%" or "0.01" on the
/// command line and always as a percentage in keys, titles and reports ("0.1%", "1%", "10%").
/// </summary>
public static class ChangedShare
{
    /// <summary>"0.1%", "1%", "12.5%": the share as a percentage, invariant culture, no trailing zeros.</summary>
    public static string Format(double share) =>
        (share * 100).ToString("0.######", CultureInfo.InvariantCulture) + "%";

    /// <summary>"1%", "0.5 %" or "0.01" → 0.01; null unless the share is a number with 0 &lt; share ≤ 100%.</summary>
    public static double? Parse(string text)
    {
        var trimmed = text.Trim();
        var percent = trimmed.EndsWith('%');
        var number = percent ? trimmed[..^1].TrimEnd() : trimmed;
        if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value))
        {
            return null;
        }

        var share = percent ? value / 100 : value;
        return share is > 0 and <= 1 ? share : null;
    }
}
