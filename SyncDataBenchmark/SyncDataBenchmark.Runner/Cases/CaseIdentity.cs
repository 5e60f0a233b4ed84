using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner.Report;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// One case as every output names it, the one place its grammar is written: a combination (<see cref="Number"/>, "Fetch:Insert")
/// or a peer (its key), and its value along each <see cref="RunDimension"/> (coding, table, changed share). A value that is
/// the dimension's plain one adds nothing, so a classic case keeps the names it always had. The plan builds it from what
/// it will run, the reports from what the record holds (<see cref="MeasuredRun.Identity"/>).
/// </summary>
public sealed record CaseIdentity(string Pair, string Name, int? Number, string Compression, string Table, string? Changed)
{
    public static CaseIdentity Of(Combination combination, SyncTable table, double? share) =>
        OfCombination(combination.Number, combination.Fetch.ToString(), combination.Insert.ToString(), combination.Compression, table.Name, Format(share));

    public static CaseIdentity Of(PeerDefinition peer, SyncTable table, double? share) => new(peer.Key, peer.Name, null, BodyCompression.None, table.Name, Format(share));

    public static CaseIdentity OfCombination(int number, string fetch, string insert, string compression, string table, string? changed) =>
        new($"{fetch}:{insert}", $"{fetch} × {insert}", number, compression, table, changed);

    /// <summary>The key: NpgsqlCopy:NpgsqlCopy[gzip][orders][1%], psql-binary[orders].</summary>
    public string Key => Pair + string.Concat(NotPlain(RunDimension.All).Select(v => $"[{v}]"));

    /// <summary>The label: "NpgsqlCopy × NpgsqlCopy [gzip] [orders]", a peer's name with the same suffixes.</summary>
    public string Label => Name + string.Concat(NotPlain(RunDimension.All).Select(v => $" [{v}]"));

    /// <summary>A combination's picture: 7.png, 7-gzip.png, 7-1pct.png (a % in a link is an escape), "-profile" before .png under a profile after the first.</summary>
    public string Picture(string? profile) =>
        $"{Number}{string.Concat(NotPlain(RunDimension.All).Select(v => "-" + v.Replace("%", "pct", StringComparison.Ordinal)))}{(profile is null ? "" : "-" + profile)}.png";

    /// <summary>Which summary it belongs to: "-orders" per splitting dimension whose value is not the plain one ("" the plain one's).</summary>
    public string Split => string.Concat(NotPlain(RunDimension.All.Where(d => d.Splits)).Select(v => "-" + v));

    /// <summary>A case's key under a profile after the first: "@profile" appended; <paramref name="profile"/> null under the first.</summary>
    public static string Profiled(string key, string? profile) => key + (profile is null ? "" : "@" + profile);

    private static string? Format(double? share) => share is { } s ? ChangedShare.Format(s) : null;

    private IEnumerable<string> NotPlain(IEnumerable<RunDimension> dimensions) =>
        dimensions.Where(d => d.Of(this) != d.Plain).Select(d => d.Of(this));
}
