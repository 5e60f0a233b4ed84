using Microsoft.EntityFrameworkCore;
using Npgsql;
using SyncData.Model;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataSource.Fetches;

/// <summary>
/// The EF model the fetch endpoints read through. PostgreSQL's timestamp reaches from 4713 BC to 294276 AD and has
/// ±infinity; .NET's DateTime holds years 1–9999, and Npgsql (its default mapping, on) reads ±infinity as
/// DateTime.MaxValue/MinValue and writes them back as ±infinity. So a real 0001-01-01 00:00:00 would read as
/// DateTime.MinValue and arrive as -infinity, and Npgsql does not always refuse a year outside 1–9999 (beyond ~29000
/// its tick arithmetic overflows into some other date). The orders table adds numeric beyond decimal (NaN, ±Infinity,
/// more than 28 decimal places or 96 bits), dates at DateOnly's ends, and arrays string?[] cannot describe. The query
/// itself refuses such a row: the value is replaced by a cast that fails with a message naming the row, the column and
/// the value, which reaches the consumer before the row is sent (README, "Guarantees").
/// </summary>
public sealed class SendableDbContext(DbContextOptions<SendableDbContext> options) : DbContext(options)
{
    /// <summary>How every refusal ends, and how <see cref="Unsendable"/> knows one (a described table's guarded query too: SendableSelect).</summary>
    internal const string Refusal = "; only the raw relays (NpgsqlCopy × NpgsqlCopyRaw or NpgsqlCopyRawTuned) carry it unchanged";

    private static readonly string GuardedUsers = Guarded("sendable-users.sql");

    private static readonly string GuardedOrders = Guarded("sendable-orders.sql");

    /// <summary>The users query over the rows changed since the watermark @since (changed_users, sql/change-tracking.sql), guarded the same way.</summary>
    public static readonly string GuardedChangedUsers = ChangedSince(GuardedUsers, SyncTable.Users);

    public static readonly string GuardedChangedOrders = ChangedSince(GuardedOrders, SyncTable.Orders);

    public DbSet<User> Users => Set<User>();

    public DbSet<Order> Orders => Set<Order>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        SyncDbContext.Configure(modelBuilder.Entity<User>());
        modelBuilder.Entity<User>().ToSqlQuery(GuardedUsers);
        SyncDbContext.Configure(modelBuilder.Entity<Order>());
        modelBuilder.Entity<Order>().ToSqlQuery(GuardedOrders);
        SyncDbContext.ConfigureTypes(modelBuilder);
    }

    /// <summary>A guarded query (it ends "from &lt;table&gt;") reading changed_&lt;table&gt;(@since) instead, under the table's name.</summary>
    private static string ChangedSince(string guarded, SyncTable table)
    {
        var from = "from " + table.Name;
        if (!guarded.EndsWith(from, StringComparison.Ordinal))
        {
            throw new InvalidOperationException($"The guarded {table.Name} query does not end with '{from}'.");
        }

        return guarded[..^from.Length] + $"from changed_{table.Name}(@since::pg_snapshot) as {table.Name}";
    }

    /// <summary>The refusal's own words when <paramref name="ex"/> is that refusal (whatever type the message was cast to), else null.</summary>
    public static string? Unsendable(Exception ex) =>
        ex is PostgresException pg && pg.MessageText.Contains(Refusal, StringComparison.Ordinal)
            ? pg.MessageText[(pg.MessageText.IndexOf("\"row ", StringComparison.Ordinal) + 1)..].TrimEnd('"')
            : null;

    private static string Guarded(string name) => Embedded(name).Replace("{refusal}", Refusal, StringComparison.Ordinal);

    internal static string Embedded(string name) => EmbeddedText.Read(typeof(SendableDbContext).Assembly, name).Trim();
}
