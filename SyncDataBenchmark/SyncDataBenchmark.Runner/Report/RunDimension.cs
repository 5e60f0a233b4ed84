using SyncData.Shared;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// A dimension the combinations' runs vary along beside fetch × insert, declared once: the summary table keeps its
/// values apart (a row per value, in the order asked), names them in each row's label and picture, and every table
/// and results.csv print it as a column (peers: the plain value). A run's plain value (none) adds nothing to its label
/// or picture, so pictures keep their names. The next dimension (--table, --changed) is one more entry in
/// <see cref="All"/>, beside its field on CombinationRun.
/// </summary>
public sealed record RunDimension(string Header, string Plain, Func<CombinationRun, string> Of, Func<BenchParameters, IReadOnlyList<string>> Asked)
{
    public static IReadOnlyList<RunDimension> All { get; } =
    [
        new("Compression", BodyCompression.None, r => r.Compression, p => p.Compressions),
    ];

    /// <summary>" [gzip]" for every dimension whose value is not the plain one.</summary>
    public static string LabelSuffix(CombinationRun run) => string.Concat(All.Where(d => d.Of(run) != d.Plain).Select(d => $" [{d.Of(run)}]"));

    /// <summary>"-gzip" for every dimension whose value is not the plain one: 7-gzip.png.</summary>
    public static string PictureSuffix(CombinationRun run) => string.Concat(All.Where(d => d.Of(run) != d.Plain).Select(d => "-" + d.Of(run)));
}
