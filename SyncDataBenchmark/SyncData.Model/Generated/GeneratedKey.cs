using System.Text.Json;

namespace SyncData.Model.Generated;

/// <summary>
/// A described table's primary key as EFKeysetPaging's "after" carries it between the two services' generated classes:
/// a JSON array of the key's values in key order, each written as the rows themselves travel (<see cref="GeneratedRowJson"/>),
/// so a key of any number of columns and of any type the generator maps goes as it was read, and is read back into the
/// source's own property types.
/// </summary>
public static class GeneratedKey
{
    /// <summary>The key's values as "after" text.</summary>
    public static string Text(params object?[] values) => JsonSerializer.Serialize(values, GeneratedRowJson.Options);

    /// <summary>
    /// "after" read back as one value of each of <paramref name="types"/> (the key's properties, in key order); null and
    /// <paramref name="error"/> when it is not such an array.
    /// </summary>
    public static object?[]? Parse(string after, IReadOnlyList<Type> types, out string? error)
    {
        try
        {
            using var document = JsonDocument.Parse(after);
            if (document.RootElement is not { ValueKind: JsonValueKind.Array } array || array.GetArrayLength() != types.Count)
            {
                error = $"expected a JSON array of the key's {types.Count} value(s) in key order.";
                return null;
            }

            var values = array.EnumerateArray().Select((element, i) => element.Deserialize(types[i], GeneratedRowJson.Options)).ToArray();
            error = values.Any(v => v is null) ? "a key column cannot be null." : null;
            return error is null ? values : null;
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or NotSupportedException)
        {
            error = $"not the key's values as JSON: {ex.Message}";
            return null;
        }
    }
}
