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
        options.Converters.Add(new PostgresDouble());
        options.Converters.Add(new PostgresSingle());
        options.MakeReadOnly();
        return options;
    }

    /// <summary>
    /// A double with NaN and ±Infinity named; "NaN" read as PostgreSQL's NaN (float8in's, 0x7FF8…): .NET's double.NaN has
    /// the sign bit set, and binary COPY or a parameter would store those bits, which float8send (the checksum) tells apart.
    /// </summary>
    private sealed class PostgresDouble : JsonConverter<double>
    {
        private static readonly double NaN = BitConverter.Int64BitsToDouble(0x7FF8_0000_0000_0000);

        public override double Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            reader.TokenType != JsonTokenType.String ? reader.GetDouble()
            : reader.ValueTextEquals("NaN") ? NaN
            : double.Parse(reader.GetString()!, System.Globalization.CultureInfo.InvariantCulture);

        public override void Write(Utf8JsonWriter writer, double value, JsonSerializerOptions options)
        {
            if (double.IsFinite(value))
            {
                writer.WriteNumberValue(value);
            }
            else
            {
                writer.WriteStringValue(double.IsNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
            }
        }
    }

    /// <summary>The same for real: PostgreSQL's NaN is 0x7FC00000 (float4in's).</summary>
    private sealed class PostgresSingle : JsonConverter<float>
    {
        private static readonly float NaN = BitConverter.Int32BitsToSingle(0x7FC0_0000);

        public override float Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
            reader.TokenType != JsonTokenType.String ? reader.GetSingle()
            : reader.ValueTextEquals("NaN") ? NaN
            : float.Parse(reader.GetString()!, System.Globalization.CultureInfo.InvariantCulture);

        public override void Write(Utf8JsonWriter writer, float value, JsonSerializerOptions options)
        {
            if (float.IsFinite(value))
            {
                writer.WriteNumberValue(value);
            }
            else
            {
                writer.WriteStringValue(float.IsNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
            }
        }
    }
}
