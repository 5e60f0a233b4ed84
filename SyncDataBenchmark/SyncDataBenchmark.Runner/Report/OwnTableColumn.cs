using SyncData.Postgres.Catalog;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One column of a user's table as the record names it: its PostgreSQL type and the CLR type the generated row class
/// holds it in (<see cref="ColumnClrTypes"/>: the same class, so the same type, for every typed writer's library), or why
/// none does (the typed writers are then refused the table; the raw relays still carry it).
/// </summary>
public sealed record OwnTableColumn(string Name, string Type, string? ClrType, string? NotMapped)
{
    public static IReadOnlyList<OwnTableColumn> Of(TableDescription table) =>
    [
        .. table.Columns.Select(c => c.Generated is not null ? new OwnTableColumn(c.Name, c.Type, null, "a generated column: the target computes it")
            : ColumnClrTypes.Of(c, out var why) is { } clr ? new OwnTableColumn(c.Name, c.Type, clr.Kind == ColumnValueKind.Enum ? "an enum generated from its labels" : clr.ClrType, null)
            : new OwnTableColumn(c.Name, c.Type, null, why)),
    ];
}
