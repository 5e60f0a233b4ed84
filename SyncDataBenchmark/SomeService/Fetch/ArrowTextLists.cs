using Apache.Arrow;

namespace SomeService.Fetch;

/// <summary>A text[] as ArrowStream carries it, list&lt;utf8&gt; with NULL elements, read back (one dimension from 1, as string?[] holds).</summary>
internal static class ArrowTextLists
{
    /// <summary>The elements of <paramref name="list"/>'s entry <paramref name="index"/>, NULL elements kept.</summary>
    public static string?[] Elements(ListArray list, int index)
    {
        var elements = (StringArray)list.Values;
        var (from, to) = (list.ValueOffsets[index], list.ValueOffsets[index + 1]);
        var result = new string?[to - from];
        for (var i = 0; i < result.Length; i++)
        {
            result[i] = elements.IsNull(from + i) ? null : elements.GetString(from + i);
        }

        return result;
    }
}
