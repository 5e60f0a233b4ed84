namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One column of a report table, declared once (BenchmarkDotNet's IColumn): its header, how its cell is read from a
/// row, the legend that explains it (the notes under a table are its columns' legends), and whether it is a number.
/// Every exporter prints a table from these: results.md, the console, and the pictures through the tables' JSON.
/// </summary>
public sealed record ReportColumn<TRow>(string Header, Func<TRow, string> Cell, string? Legend = null, bool Numeric = false);
