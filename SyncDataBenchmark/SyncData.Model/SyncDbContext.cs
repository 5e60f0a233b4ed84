using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;
using Npgsql;
using Npgsql.EntityFrameworkCore.PostgreSQL.Infrastructure;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncData.Model;

/// <summary>
/// The EF Core model of the tables the lab moves (users, orders); only the services use it (the runner and the harness
/// speak SQL). The orders table is mapped with EF Core's and Npgsql's own mappings, as a team would map it: a
/// PostgreSQL enum (MapEnum on both the data source and EF), jsonb as a string column typed jsonb, text[] as string?[],
/// bytea as byte[], numeric as decimal, char(3) as a fixed-length string, date as DateOnly, timestamptz as UTC DateTime.
/// </summary>
public sealed class SyncDbContext(DbContextOptions<SyncDbContext> options) : DbContext(options)
{
    /// <summary>The PostgreSQL name of <see cref="OrderStatus"/> (sql/schema.sql).</summary>
    public const string OrderStatusType = "order_status";

    public DbSet<User> Users => Set<User>();

    public DbSet<Order> Orders => Set<Order>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        Configure(modelBuilder.Entity<User>());
        Configure(modelBuilder.Entity<Order>());
        ConfigureTypes(modelBuilder);
    }

    /// <summary>Npgsql's own mapping of the enum, on the data source every connection of a service comes from (Npgsql reads and writes it).</summary>
    public static void MapTypes(NpgsqlDataSourceBuilder dataSource) => dataSource.MapEnum<OrderStatus>(OrderStatusType);

    /// <summary>EF's side of the same mapping, for every context on such a data source or connection.</summary>
    public static void MapTypes(NpgsqlDbContextOptionsBuilder npgsql) => npgsql.MapEnum<OrderStatus>(OrderStatusType);

    /// <summary>The model's PostgreSQL types (for every context built from this model's mappings).</summary>
    public static void ConfigureTypes(ModelBuilder modelBuilder) => modelBuilder.HasPostgresEnum<OrderStatus>(name: OrderStatusType);

    /// <summary>The users table's mapping, shared by every context that reads or writes it.</summary>
    public static void Configure(EntityTypeBuilder<User> user)
    {
        user.ToTable(SyncTable.Users.Name);
        user.HasKey(u => u.Id);
        // Ids come from the source (uuid v7): never let EF generate them.
        user.Property(u => u.Id).HasColumnName("id").ValueGeneratedNever();
        user.Property(u => u.Name).HasColumnName("name");
        user.Property(u => u.Patronymic).HasColumnName("patronymic");
        user.Property(u => u.Surname).HasColumnName("surname");
        user.Property(u => u.CreatedAt).HasColumnName("created_at").HasColumnType("timestamp");
        user.Property(u => u.IsActive).HasColumnName("is_active");
    }

    /// <summary>The orders table's mapping (sql/schema.sql), shared by every context that reads or writes it.</summary>
    public static void Configure(EntityTypeBuilder<Order> order)
    {
        order.ToTable(SyncTable.Orders.Name);
        order.HasKey(o => o.Id);
        // The source's ids are copied as they are: EF must send them, not leave them to the identity.
        order.Property(o => o.Id).HasColumnName("id").ValueGeneratedNever();
        order.Property(o => o.CustomerId).HasColumnName("customer_id");
        order.Property(o => o.Status).HasColumnName("status").HasColumnType(OrderStatusType);
        order.Property(o => o.Total).HasColumnName("total").HasColumnType("numeric(19,4)");
        order.Property(o => o.Discount).HasColumnName("discount").HasColumnType("numeric(19,4)");
        order.Property(o => o.ExchangeRate).HasColumnName("exchange_rate").HasColumnType("numeric");
        order.Property(o => o.Currency).HasColumnName("currency").HasColumnType("character(3)").IsFixedLength().HasMaxLength(3);
        order.Property(o => o.PlacedAt).HasColumnName("placed_at").HasColumnType("timestamptz");
        order.Property(o => o.DeliveryDate).HasColumnName("delivery_date").HasColumnType("date");
        order.Property(o => o.Tags).HasColumnName("tags").HasColumnType("text[]");
        order.Property(o => o.Attributes).HasColumnName("attributes").HasColumnType("jsonb");
        order.Property(o => o.Note).HasColumnName("note");
        order.Property(o => o.Attachment).HasColumnName("attachment").HasColumnType("bytea");
        order.Property(o => o.ItemCount).HasColumnName("item_count");
        order.Property(o => o.IsGift).HasColumnName("is_gift");
        order.Property(o => o.ShippingAddress).HasColumnName("shipping_address");
    }
}
