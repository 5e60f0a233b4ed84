namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A run on a user's own table (--source-connection), as the record names it: where the table is (server, database,
/// user: never the password), the table, what the runner left out on it and why, one line each (docs/own-table.md), and
/// the CLR type each column got in the generated row class (<see cref="OwnTableColumn"/>; absent from earlier records).
/// </summary>
public sealed record OwnTableReport(string Source, string Table, IReadOnlyList<string> LeftOut)
{
    public IReadOnlyList<OwnTableColumn>? Columns { get; init; }
}
