using System.Globalization;

namespace SyncData.Shared;

/// <summary>SyncDataSource's routes, as the server maps them and the consumers call them.</summary>
public static class SourceRoutes
{
    public const string Offset = "users/offset";
    public const string Keyset = "users/keyset";
    public const string Stream = "users/stream";
    public const string Copy = "users/copy";
    public const string Summary = "users/summary";

    public static string OffsetPage(long offset, int limit) =>
        string.Create(CultureInfo.InvariantCulture, $"{Offset}?offset={offset}&limit={limit}");

    public static string KeysetPage(Guid? after, int limit) => after is { } id
        ? string.Create(CultureInfo.InvariantCulture, $"{Keyset}?after={id}&limit={limit}")
        : string.Create(CultureInfo.InvariantCulture, $"{Keyset}?limit={limit}");
}
