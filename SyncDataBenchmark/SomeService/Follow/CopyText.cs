using System.Globalization;
using System.Text;

namespace SomeService.Follow;

/// <summary>A row of text values as one line of COPY's text format (tab-separated, \N for NULL, backslash escapes).</summary>
internal static class CopyText
{
    /// <param name="unchanged">When given (the staging table's last column), the positions as an int[] literal; null: \N.</param>
    public static string Line(string?[] values, int[]? unchanged, bool withUnchanged = false)
    {
        var line = new StringBuilder();
        for (var i = 0; i < values.Length; i++)
        {
            if (i > 0)
            {
                line.Append('\t');
            }

            Append(line, values[i]);
        }

        if (unchanged is not null || withUnchanged)
        {
            line.Append('\t');
            Append(line, unchanged is null ? null : "{" + string.Join(',', unchanged.Select(u => u.ToString(CultureInfo.InvariantCulture))) + "}");
        }

        return line.Append('\n').ToString();
    }

    private static void Append(StringBuilder line, string? value)
    {
        if (value is null)
        {
            line.Append("\\N");
            return;
        }

        foreach (var c in value)
        {
            _ = c switch
            {
                '\\' => line.Append("\\\\"),
                '\n' => line.Append("\\n"),
                '\r' => line.Append("\\r"),
                '\t' => line.Append("\\t"),
                _ => line.Append(c),
            };
        }
    }
}
