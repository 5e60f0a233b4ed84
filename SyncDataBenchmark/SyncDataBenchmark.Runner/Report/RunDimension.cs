using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A dimension the runs vary along beside fetch × insert, declared once: the summary table keeps its values apart (a
/// row per value, in the order asked), a case names its values (<see cref="CaseIdentity"/>: [1%], 9-1%.png), and every
/// table and results.csv print it as a column once the record names its values (<see cref="Asked"/> not null: a record
/// from before the dimension renders as it did). A run's plain value adds nothing to its names, so pictures keep
/// their names. A dimension that <see cref="Splits"/> is one the peers vary along too (the table): each value is a
/// summary of its own, ranked, and compared with its own psql pipe: the table and the changed share (--changed).
/// </summary>
public sealed record RunDimension(string Header, string Plain, Func<CaseIdentity, string> Of, Func<BenchParameters, IReadOnlyList<string>?> Asked,
    bool Splits = false, string? Legend = null)
{
    public static IReadOnlyList<RunDimension> All { get; } =
    [
        // The peers run once, uncompressed.
        new("Compression", BodyCompression.None, c => c.Compression, p => p.Compressions),
        new("Table", SyncTable.Default.Name, c => c.Table, p => p.Tables, Splits: true,
            "Table is the table moved (--table). Each table's rows are ranked on their own: Rank and Ratio to fastest among that table's combinations, "
            + "Ratio to psql binary against that table's psql binary pipe."),
        // No share: the classic run into an emptied target; the peers change with the share too.
        new("Changed", "", c => c.Changed ?? "", p => p.Changed, Splits: true,
            "Changed is the share of the source's rows changed before each run (--changed; 70% updates, 20% inserts, 10% deletes): "
            + "the target held the source's rows at the watermark, the run brought it up to date. Each share's rows are ranked on their own."),
    ];

    /// <summary>The dimensions a record names values of: its tables' and CSV's columns.</summary>
    public static IReadOnlyList<RunDimension> Shown(BenchParameters parameters) => All.Where(d => d.Asked(parameters) is not null).ToList();

    /// <summary>The value of <paramref name="run"/> per splitting dimension, by header (a peer's row carries these).</summary>
    public static Dictionary<string, string> SplitValues(MeasuredRun run) => All.Where(d => d.Splits).ToDictionary(d => d.Header, d => d.Of(run.Identity));
}
