namespace SyncData.Shared;

/// <summary>
/// The content coding a run asks SyncDataSource for (the trigger's <c>c=</c>): <see cref="None"/> sends no
/// Accept-Encoding, so the bodies travel as they always did. Names are matched case-insensitively.
/// </summary>
public static class BodyCompression
{
    public const string None = "none";
    public const string Gzip = "gzip";
    public const string Brotli = "brotli";

    public static IReadOnlyList<string> Names { get; } = [None, Gzip, Brotli];

    public static string NameList => string.Join(", ", Names);

    /// <summary>The name as written in <see cref="Names"/>, or false for anything else (null included).</summary>
    public static bool TryParse(string? text, out string name)
    {
        var found = Names.FirstOrDefault(n => string.Equals(n, text, StringComparison.OrdinalIgnoreCase));
        name = found ?? None;
        return found is not null;
    }

    /// <summary>The HTTP content-coding token (Accept-Encoding, Content-Encoding) of a name; null for <see cref="None"/>.</summary>
    public static string? ContentCoding(string name) => name switch
    {
        Gzip => "gzip",
        Brotli => "br",
        _ => null,
    };
}
