namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A run on a user's own table (--source-connection), as the record names it: where the table is (server, database,
/// user: never the password), the table, and what the runner left out on it and why, one line each (docs/own-table.md).
/// </summary>
public sealed record OwnTableReport(string Source, string Table, IReadOnlyList<string> LeftOut);
