using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A dimension the runs vary along beside fetch × insert, declared once: the summary table keeps its values apart (a
/// row per value, in the order asked), names them in each row's label and picture, and every table and results.csv
/// print it as a column once the record names its values (<see cref="Asked"/> not null: a record from before the
/// dimension renders as it did). A run's plain value adds nothing to its label or picture, so pictures keep their
/// names. A dimension that <see cref="Splits"/> is one the peers vary along too (the table): each value is a summary
/// of its own, ranked, and compared with its own psql pipe. The next dimension (--changed) is one more entry in
/// <see cref="All"/>, beside its field on the run.
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
    ];

    /// <summary>The dimensions a record names values of: its tables' and CSV's columns.</summary>
    public static IReadOnlyList<RunDimension> Shown(BenchParameters parameters) => All.Where(d => d.Asked(parameters) is not null).ToList();

    /// <summary>" [gzip]" for every dimension whose value is not the plain one.</summary>
    public static string LabelSuffix(MeasuredRun run) => string.Concat(NotPlain(run, All).Select(v => $" [{v}]"));

    /// <summary>"-gzip" for every dimension whose value is not the plain one: 7-gzip.png.</summary>
    public static string PictureSuffix(MeasuredRun run) => string.Concat(NotPlain(run, All).Select(v => "-" + v));

    /// <summary>Which summary a run belongs to: "-orders" per splitting dimension whose value is not the plain one ("" the plain one's).</summary>
    public static string SplitOf(MeasuredRun run) => string.Concat(NotPlain(run, All.Where(d => d.Splits)).Select(v => "-" + v));

    /// <summary>A peer's key within its split, unique as a combination's key is: psql-binary[orders].</summary>
    public static string PeerCase(PeerRun run) => run.Peer + string.Concat(NotPlain(run, All.Where(d => d.Splits)).Select(v => $"[{v}]"));

    /// <summary>The value of <paramref name="run"/> per splitting dimension, by header (a peer's row carries these).</summary>
    public static Dictionary<string, string> SplitValues(MeasuredRun run) => All.Where(d => d.Splits).ToDictionary(d => d.Header, d => d.Of(run));

    private static IEnumerable<string> NotPlain(MeasuredRun run, IEnumerable<RunDimension> dimensions) =>
        dimensions.Where(d => d.Of(run) != d.Plain).Select(d => d.Of(run));
}
