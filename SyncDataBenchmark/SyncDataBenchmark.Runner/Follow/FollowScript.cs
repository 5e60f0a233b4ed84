using System.Globalization;
using System.Text.RegularExpressions;
using SyncData.Harness;
using SyncData.Postgres;
using SyncDataBenchmark.Runner.Report;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>
/// A table's pgbench write load (sql/follow/&lt;table&gt;.pgbench.sql) and what its header declares, so each table's
/// facts live in its own script: <c>-- rows per transaction: N</c>, the mean of its mix, which turns a rate in rows/s
/// into pgbench's transactions/s; <c>-- mix: insert I, update U, delete D</c>, the rows per transaction of each kind it
/// asks for (recorded beside the mix it achieved); and any <c>-- define name: query</c>, a variable the script needs
/// (pgbench's -D), read from the source before the load starts.
/// </summary>
public sealed partial record FollowScript(string Path, double RowsPerTransaction, IReadOnlyList<(string Name, string Query)> Defines)
{
    /// <summary>The inserted, updated and deleted rows per transaction the script asks for (its '-- mix:' line).</summary>
    public required WriteMix Mix { get; init; }

    /// <summary>
    /// The script for <paramref name="table"/>: a folder table's own (SyncData.Harness/Tables/&lt;table&gt;/follow.pgbench.sql,
    /// so adding a table is adding a folder), else sql/follow/&lt;table&gt;.pgbench.sql; it throws naming the file when there
    /// is none or the header lacks its rows per transaction.
    /// </summary>
    public static FollowScript Of(SyncTable table)
    {
        var path = PathOf(table);
        var text = File.Exists(path) ? File.ReadAllText(path) : throw new InvalidOperationException($"{table.Name} has no follow write load: {path} does not exist.");
        var rows = RowsLine().Match(text);
        if (!rows.Success)
        {
            throw new InvalidOperationException($"{path} declares no '-- rows per transaction: N' line.");
        }

        var mix = MixLine().Match(text);
        if (!mix.Success)
        {
            throw new InvalidOperationException($"{path} declares no '-- mix: insert I, update U, delete D' line.");
        }

        var defines = DefineLine().Matches(text).Select(m => (m.Groups[1].Value, m.Groups[2].Value.Trim())).ToList();
        return new FollowScript(path, Number(rows.Groups[1]), defines) { Mix = new WriteMix(Number(mix.Groups[1]), Number(mix.Groups[2]), Number(mix.Groups[3])) };
    }

    /// <summary>Where <paramref name="table"/>'s script is, or would be.</summary>
    public static string PathOf(SyncTable table)
    {
        var name = (table.Behind ?? table).Name;
        var folder = System.IO.Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark", "SyncData.Harness", "Tables", name, "follow.pgbench.sql");
        return File.Exists(folder) ? folder : System.IO.Path.Combine(Lab.RepositoryRoot, "sql", "follow", $"{name}.pgbench.sql");
    }

    /// <summary>pgbench's -R for a load of <paramref name="rowsPerSecond"/> rows a second.</summary>
    public double TransactionsPerSecond(long rowsPerSecond) => rowsPerSecond / RowsPerTransaction;

    /// <summary>pgbench's -D arguments, each define's query read from <paramref name="sourceDb"/>.</summary>
    public async Task<IReadOnlyList<string>> DefineArgumentsAsync(string sourceDb, CancellationToken ct)
    {
        var arguments = new List<string>();
        foreach (var (name, query) in Defines)
        {
            var value = Convert.ToString(await Lab.ScalarAsync(sourceDb, query, ct), CultureInfo.InvariantCulture);
            arguments.AddRange(["-D", $"{name}={value}"]);
        }

        return arguments;
    }

    [GeneratedRegex(@"^-- rows per transaction: ([0-9.]+)\s*$", RegexOptions.Multiline)]
    private static partial Regex RowsLine();

    private static double Number(Group group) => double.Parse(group.Value, CultureInfo.InvariantCulture);

    [GeneratedRegex(@"^-- mix: insert ([0-9.]+), update ([0-9.]+), delete ([0-9.]+)\s*$", RegexOptions.Multiline)]
    private static partial Regex MixLine();

    [GeneratedRegex(@"^-- define ([a-z_]+): (.+)$", RegexOptions.Multiline)]
    private static partial Regex DefineLine();
}
