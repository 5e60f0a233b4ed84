using System.Text.Json;
using System.Text.Json.Serialization;

namespace SyncData.Shared;

/// <summary>
/// A string that holds a JSON document (a jsonb column's text) written into the JSON wire as that document, and read
/// back as its text: no second encoding (a string of escaped JSON would grow every quote and backslash, and the
/// consumer would parse the document twice). The text read back is the value's own bytes as sent, so jsonb's
/// canonical text stays character for character what the source's PostgreSQL printed.
/// </summary>
public sealed class RawJsonConverter : JsonConverter<string>
{
    public override string Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        using var document = JsonDocument.ParseValue(ref reader);
        return document.RootElement.GetRawText();
    }

    /// <summary>Validated as it is written: a string that is not JSON would otherwise corrupt the whole body.</summary>
    public override void Write(Utf8JsonWriter writer, string value, JsonSerializerOptions options) => writer.WriteRawValue(value);
}
