using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A dimension the runs vary along beside fetch × insert, declared once: the summary table keeps its values apart (a
/// row per value, in the order asked), names them in each row's label and picture ([1%], 9-1%.png), and every table and results.csv
/// print it as a column once the record names its values (<see cref="Asked"/> not null: a record from before the
/// dimension renders as it did). A run's plain value adds nothing to its label or picture, so pictures keep their
/// names. A dimension that <see cref="Splits"/> is one the peers vary along too (the table): each value is a summary
/// of its own, ranked, and compared with its own psql pipe: the table and the changed share (--changed).
/// </summary>
public sealed record RunDimension(string Header, string Plain, Func<MeasuredRun, string> Of, Func<BenchParameters, IReadOnlyList<string>?> Asked,
    bool Splits = false, string? Legend = null)
{
    public static IReadOnlyList<RunDimension> All { get; } =
    [
        // The peers run once, uncompressed.
        new("Compression", BodyCompression.None, r => r is CombinationRun c ? c.Compression : BodyCompression.None, p => p.Compressions),
        new("Table", SyncTable.Users.Name, r => r.Table, p => p.Tables, Splits: true,
            "Table is the table moved (--table). Each table's rows are ranked on their own: Rank and Ratio to fastest among that table's combinations, "
            + "Ratio to psql binary against that table's psql binary pipe."),
        // No share: the classic run into an emptied target; the peers change with the share too.
        new("Changed", "", r => r.Changed ?? "", p => p.Changed, Splits: true,
            "Changed is the share of the source's rows changed before each run (--changed; 70% updates, 20% inserts, 10% deletes): "
            + "the target held the source's rows at the watermark, the run brought it up to date. Each share's rows are ranked on their own."),
    ];

    /// <summary>The dimensions a record names values of: its tables' and CSV's columns.</summary>
    public static IReadOnlyList<RunDimension> Shown(BenchParameters parameters) => All.Where(d => d.Asked(parameters) is not null).ToList();

    /// <summary>" [gzip]" for every dimension whose value is not the plain one.</summary>
    public static string LabelSuffix(MeasuredRun run) => string.Concat(NotPlain(run, All).Select(v => $" [{v}]"));

    /// <summary>"-gzip" for every dimension whose value is not the plain one: 7-gzip.png; a share's % is "pct" (a % in a link is an escape): 7-1pct.png.</summary>
    public static string PictureSuffix(MeasuredRun run) => string.Concat(NotPlain(run, All).Select(v => "-" + v.Replace("%", "pct", StringComparison.Ordinal)));

    /// <summary>Which summary a run belongs to: "-orders" per splitting dimension whose value is not the plain one ("" the plain one's).</summary>
    public static string SplitOf(MeasuredRun run) => string.Concat(NotPlain(run, All.Where(d => d.Splits)).Select(v => "-" + v));

    /// <summary>A peer's key within its split, unique as a combination's key is: psql-binary[orders].</summary>
    public static string PeerCase(PeerRun run) => run.Peer + string.Concat(NotPlain(run, All.Where(d => d.Splits)).Select(v => $"[{v}]"));

    /// <summary>The value of <paramref name="run"/> per splitting dimension, by header (a peer's row carries these).</summary>
    public static Dictionary<string, string> SplitValues(MeasuredRun run) => All.Where(d => d.Splits).ToDictionary(d => d.Header, d => d.Of(run));

    private static IEnumerable<string> NotPlain(MeasuredRun run, IEnumerable<RunDimension> dimensions) =>
        dimensions.Where(d => d.Of(run) != d.Plain).Select(d => d.Of(run));
}
