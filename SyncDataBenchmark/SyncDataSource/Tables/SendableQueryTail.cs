using SyncData.Model.Generated;

namespace SyncDataSource.Tables;

/// <summary>
/// What SyncDataSource adds to a described table's generated EF context (<see cref="RowClassTail"/>): the entity read by
/// the table's guarded SELECT (SendableSelect), mapped once in the model with ToSqlQuery, as SendableDbContext maps the
/// written users and orders. Composed per query instead (FromSqlRaw), every page request built the query's SQL root
/// again: 13–16 KiB more per 1,000-row page than the written road (in process, docs/tables.md). The context only reads:
/// SomeService writes through a context generated with a tail of its own.
/// </summary>
public static class SendableQueryTail
{
    /// <summary>The tail mapping the entity to <paramref name="query"/>.</summary>
    public static RowClassTail Of(string query) => (source, entity, _, _) =>
    {
        source.AppendLine($"public sealed partial class {RowClassSource.ContextOf(entity)}").AppendLine("{");
        source.AppendLine($"    protected override void OnModelCreating(ModelBuilder modelBuilder) => modelBuilder.Entity<{entity}>().ToSqlQuery({RowClassSource.Literal(query)});");
        source.AppendLine("}");
    };
}
