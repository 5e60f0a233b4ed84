namespace SomeService.Tables;

/// <summary>Code written once over a table's row type, called with the run's table (<see cref="IRowTable.Accept{TResult}"/>).</summary>
public interface IRowTableVisitor<out TResult>
{
    TResult Visit<TRow>(RowTable<TRow> table)
        where TRow : class;
}
