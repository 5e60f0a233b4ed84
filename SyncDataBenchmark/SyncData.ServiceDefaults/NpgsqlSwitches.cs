namespace SyncData.ServiceDefaults;

public static class NpgsqlSwitches
{
    /// <summary>Npgsql's AppContext switch: DateTime.MinValue/MaxValue stay themselves instead of meaning ±infinity.</summary>
    public const string DisableDateTimeInfinityConversions = "Npgsql.DisableDateTimeInfinityConversions";
}
