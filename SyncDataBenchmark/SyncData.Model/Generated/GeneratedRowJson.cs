using System.Globalization;
using System.Numerics;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace SyncData.Model.Generated;

/// <summary>
/// The JSON a described table's generated rows travel as, the one setting both services use: ASP.NET Core's web
/// defaults and relaxed escaping, as the JSON fetches of the lab's own tables write; real and double's NaN and ±Infinity
/// as named literals (the generated class holds them, and default JSON would refuse them without naming the row), a NaN
/// read back as PostgreSQL's own (positive, quiet) NaN, not .NET's negative one, whose bits the target would keep; an
/// enum by its member's name, so two services' generated enums that disagree fail rather than swap labels; metadata by
/// reflection, since the class exists only at run time.
/// </summary>
public static class GeneratedRowJson
{
    public static JsonSerializerOptions Options { get; } = Build();

    /// <summary>The metadata of <typeparamref name="T"/> under <see cref="Options"/>.</summary>
    public static JsonTypeInfo<T> Of<T>() => (JsonTypeInfo<T>)Options.GetTypeInfo(typeof(T));

    private static JsonSerializerOptions Build()
    {
        var options = new JsonSerializerOptions(JsonSerializerDefaults.Web)
        {
            Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
            NumberHandling = JsonNumberHandling.AllowReadingFromString | JsonNumberHandling.AllowNamedFloatingPointLiterals,
            TypeInfoResolver = new DefaultJsonTypeInfoResolver(),
        };
        options.Converters.Add(new JsonStringEnumConverter());
        options.Converters.Add(new PostgresFloat<double>(BitConverter.Int64BitsToDouble(0x7FF8_0000_0000_0000), (ref Utf8JsonReader r) => r.GetDouble(), (w, v) => w.WriteNumberValue(v)));
        options.Converters.Add(new PostgresFloat<float>(BitConverter.Int32BitsToSingle(0x7FC0_0000), (ref Utf8JsonReader r) => r.GetSingle(), (w, v) => w.WriteNumberValue(v)));
        options.MakeReadOnly();
        return options;
    }

    private delegate T ReadNumber<T>(ref Utf8JsonReader reader);

    /// <summary>
    /// A float or double with NaN and ±Infinity named; "NaN" read as PostgreSQL's NaN (float4in's and float8in's, the sign
    /// bit clear): .NET's float.NaN and double.NaN have it set, and binary COPY or a parameter would store those bits,
    /// which float4send/float8send (the checksum) tell apart.
    /// </summary>
    private sealed class PostgresFloat<T>(T nan, ReadNumber<T> number, Action<Utf8JsonWriter, T> write) : JsonConverter<T>
        where T : struct, IFloatingPointIeee754<T>
    {
        public override T Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            reader.TokenType != JsonTokenType.String ? number(ref reader)
            : reader.ValueTextEquals("NaN") ? nan
            : T.Parse(reader.GetString()!, CultureInfo.InvariantCulture);

        public override void Write(Utf8JsonWriter writer, T value, JsonSerializerOptions options)
        {
            if (T.IsFinite(value))
            {
                write(writer, value);
            }
            else
            {
                writer.WriteStringValue(T.IsNaN(value) ? "NaN" : T.IsPositive(value) ? "Infinity" : "-Infinity");
            }
        }
    }
}
