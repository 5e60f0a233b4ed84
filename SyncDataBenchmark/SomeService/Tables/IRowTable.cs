using Apache.Arrow;
using Npgsql;
using SomeService.Fetch;
using SyncData.Postgres;

namespace SomeService.Tables;

/// <summary>
/// A table as SomeService moves it, whatever its row type: the one dispatch from a run's table to code written once
/// over the row type (<see cref="RowTable{TRow}"/>, reached through <see cref="Accept{TResult}"/>).
/// </summary>
public interface IRowTable
{
    SyncTable Table { get; }

    /// <summary>The data source the run's connection comes from when it is not the service's target (a generated table's, its enums mapped); null for the target's.</summary>
    NpgsqlDataSource? DataSource { get; }

    /// <summary>How an ArrowStream schema that arrived differs from this table's, or null when it does not.</summary>
    string? ArrowMismatch(Schema received);

    /// <summary>How this table's ArrowStream columns become binary COPY values, for the writers of COPY bytes.</summary>
    ArrowCopyColumns ArrowCopy { get; }

    /// <summary>Calls <paramref name="visitor"/> with this table's rows' type.</summary>
    TResult Accept<TResult>(IRowTableVisitor<TResult> visitor);

    /// <summary>Every table SomeService moves: the one list to add a table's row mapping to.</summary>
    static IReadOnlyList<IRowTable> All { get; } = [UsersRowTable.Instance, OrdersRowTable.Instance];

    /// <summary>The row mapping of <paramref name="table"/>.</summary>
    static IRowTable Of(SyncTable table) =>
        All.FirstOrDefault(t => t.Table == table) ?? throw new InvalidOperationException($"SomeService has no row mapping for the table {table.Name}.");
}
