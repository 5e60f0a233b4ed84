using Microsoft.EntityFrameworkCore;
using SyncData.Postgres;
using SyncData.Shared;

namespace SyncData.Model;

/// <summary>The EF Core model of the users table; only the services use it (the runner and the harness speak SQL).</summary>
public sealed class UsersDbContext(DbContextOptions<UsersDbContext> options) : DbContext(options)
{
    public DbSet<User> Users => Set<User>();

    protected override void OnModelCreating(ModelBuilder modelBuilder) => Configure(modelBuilder.Entity<User>());

    /// <summary>The users table's mapping, shared by every context that reads or writes it.</summary>
    public static void Configure(Microsoft.EntityFrameworkCore.Metadata.Builders.EntityTypeBuilder<User> user)
    {
        user.ToTable(UsersTable.Name);
        user.HasKey(u => u.Id);
        // Ids come from the source (uuid v7): never let EF generate them.
        user.Property(u => u.Id).HasColumnName("id").ValueGeneratedNever();
        user.Property(u => u.Name).HasColumnName("name");
        user.Property(u => u.Patronymic).HasColumnName("patronymic");
        user.Property(u => u.Surname).HasColumnName("surname");
        user.Property(u => u.CreatedAt).HasColumnName("created_at").HasColumnType("timestamp");
        user.Property(u => u.IsActive).HasColumnName("is_active");
    }
}
