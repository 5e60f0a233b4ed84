using Spectre.Console;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;
using SyncDataBenchmark.Runner.Follow.Report;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: the one summary table. Its rows come from the record's runs alone, every exporter prints its declared
/// columns, the exporters agree on every value, and every committed report is what its record renders.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class SummaryTableTests
{
    private static readonly string Artifacts = Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts");

    /// <summary>Every artifacts folder with a record, the top one included.</summary>
    public static TheoryData<string> RecordFolders() => new(Directory.EnumerateFiles(Artifacts, ResultsFile.FileName, SearchOption.AllDirectories)
        .Select(f => Path.GetRelativePath(Artifacts, Path.GetDirectoryName(f)!)).Order());

    [Fact]
    public void Rows_rank_by_median_and_every_ratio_is_median_over_median()
    {
        var combinations = CaseNumbers.Runnable.Take(3).ToList();
        var runs = new List<CombinationRun>();
        void Add(Combination c, int round, double ms, bool ok = true) => runs.Add(Run(c, round, ms, ok));
        Add(combinations[0], 0, 1.0); // a warm-up never counts, however fast
        Add(combinations[0], 1, 300);
        Add(combinations[0], 2, 60); // the fastest single run, but not the fastest median
        Add(combinations[1], 1, 100);
        Add(combinations[1], 2, 50, ok: false); // a failed run is a failure, not the best
        Add(combinations[2], 1, 400, ok: false);
        var psql = PeerDefinition.All.Single(p => p.Key == PeerDefinition.PsqlBinaryKey);
        PeerRun[] peers = [new() { Peer = psql.Key, Round = 1, Warmup = false, SourceRows = 1_000, Status = RunStatus.Succeeded, Verified = true, DurationMs = 50, Scope = psql.Scope }];

        var rows = SummaryTable.Build(Record(runs, peers), 1_000, NetworkLink.LoopbackName);

        var first = rows.Single(r => r.Case == combinations[0].Key);
        var second = rows.Single(r => r.Case == combinations[1].Key);
        var third = rows.Single(r => r.Case == combinations[2].Key);
        Assert.Equal((60.0, 180.0, 2, 0, 2), (first.BestMs!.Value, first.MedianMs!.Value, first.Rank!.Value, first.Failures, first.TimedRuns));
        Assert.Equal((100.0, 1, 1), (second.BestMs!.Value, second.Rank!.Value, second.Failures));
        Assert.Equal(1.8, first.RatioToFastest);
        Assert.Equal(3.6, first.RatioToPsqlBinary);
        // Fewer than three runs a side: no interval, and the table says the ratio without one.
        Assert.Null(first.RatioInterval);
        Assert.Equal("3.60×", SummaryColumns.RatioToPsqlBinary.Cell(first));
        Assert.Equal((null, null, 1, 0), (third.BestMs, third.Rank, third.Failures, third.Succeeded));
        Assert.Equal(1.0, rows.Single(r => r.Case == psql.Key).RatioToPsqlBinary);
        Assert.Equal([.. combinations.Select(c => c.Key), psql.Key], rows.Select(r => r.Case));
    }

    [Fact]
    public async Task Markdown_and_console_print_the_declared_columns_in_their_order()
    {
        var tables = ReportTables.Of(await ResultsFile.ReadAsync(Path.Combine(Artifacts, ResultsFile.FileName)));
        var repeat = tables.Parameters.Repeat;

        var markdown = MarkdownReport.Render(tables, charts: true).Split('\n');
        var console = new StringWriter();
        var ansi = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(console), Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors });
        ansi.Profile.Width = 400;
        ConsoleSummary.Show(ansi, tables, "out", null);

        Assert.Contains("| " + string.Join(" | ", SummaryColumns.Headline(tables.Parameters, charts: true).Select(c => c.Header)) + " |", markdown);
        var consoleHeader = console.ToString().Split('\n').First(l => l.Contains(SummaryColumns.Case.Header, StringComparison.Ordinal));
        var positions = ConsoleSummary.Columns(repeat, narrow: false).Select(c => consoleHeader.IndexOf(c.Header, StringComparison.Ordinal)).ToList();
        Assert.DoesNotContain(-1, positions);
        Assert.Equal(positions.Order(), positions);
        // The console's columns are the summary table's own, not look-alikes: the same cell for every row.
        var declared = SummaryColumns.Headline(tables.Parameters, charts: true).Append(SummaryColumns.Case).ToDictionary(c => c.Header);
        foreach (var column in ConsoleSummary.Columns(repeat, narrow: false).Concat(ConsoleSummary.Columns(repeat, narrow: true)))
        {
            Assert.All(tables.Summary, row => Assert.Equal(declared[column.Header].Cell(row), column.Cell(row)));
        }
    }

    /// <summary>A case stopped by its second failed run says so in Runs, not "budget: few runs" (issue 62).</summary>
    [Fact]
    public void A_case_stopped_by_two_failures_says_so()
    {
        var combination = CaseNumbers.Runnable[0];
        var runs = new List<CombinationRun> { Run(combination, 1, 100, ok: true), Run(combination, 2, 100, ok: false), Run(combination, 3, 100, ok: false) };
        var record = Record(runs, []) with { Parameters = Record(runs, []).Parameters with { TargetWidth = 0.10, MaxRepeat = 20 } };

        var row = SummaryTable.Build(record, 1_000, NetworkLink.LoopbackName).Single(r => r.Case == combination.Key);

        Assert.Equal("failures", row.Stopped);
        Assert.Equal("1 (stopped: 2 failed)", SummaryColumns.Runs.Cell(row));
    }

    /// <summary>
    /// In a 120-column terminal every closing table of every committed record fits, each row on one line: the widest
    /// layout that fits is chosen (issue 62: every summary row wrapped over 4–5 lines), and a --follow record ends
    /// with its table and the line saying where the results are.
    /// </summary>
    [Theory]
    [MemberData(nameof(RecordFolders))]
    public async Task The_console_tables_fit_120_columns_each_row_on_one_line(string folder)
    {
        var report = await ResultsFile.ReadAsync(Path.Combine(Artifacts, folder, ResultsFile.FileName));
        var console = new StringWriter();
        var ansi = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(console), Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors });
        ansi.Profile.Width = 120;
        var tables = ReportTables.Of(report);
        (string Key, string Cell)[] rows;
        if (report.Follow is { } follow)
        {
            ConsoleSummary.ShowFollow(ansi, report, "out");
            rows = [.. follow.Select(r => ($"{r.Mechanism} ", FollowColumns.All.Single(c => c.Header == "Catch-up").Cell(r)))];
        }
        else
        {
            ConsoleSummary.Show(ansi, tables, "out", null);
            rows = [.. tables.Summary.Select(r => (r.ProfiledLabel + " ", SummaryColumns.Median.Cell(r)))];
        }

        var lines = console.ToString().Split('\n');
        Assert.All(lines, line => Assert.True(line.TrimEnd().Length <= 120, $"{line.TrimEnd().Length} columns: {line}"));
        Assert.All(rows, row => Assert.Contains(lines, line => line.Contains(row.Key, StringComparison.Ordinal) && line.Contains(row.Cell, StringComparison.Ordinal)));
        Assert.Contains("out", lines.Last(l => l.Trim().Length > 0), StringComparison.Ordinal);
    }

    /// <summary>A dimension declared once (RunDimension) is a column of every table and of results.csv, and names its rows and pictures.</summary>
    [Fact]
    public void Each_run_dimension_is_a_column_everywhere_and_names_its_rows()
    {
        var parameters = TwoTablesAndAShare().Parameters;
        var tables = ReportTables.Of(TwoTablesAndAShare());
        string[][] headers =
        [
            [.. SummaryColumns.Headline(parameters, charts: true).Select(c => c.Header)], [.. SummaryColumns.WireAndCpu(parameters).Select(c => c.Header)],
            [.. CsvReport.Columns(parameters).Select(c => c.Header)],
        ];

        foreach (var dimension in RunDimension.All)
        {
            Assert.All(headers, h => Assert.Contains(dimension.Header, h));
            var named = tables.Summary.Where(r => r.Kind == SummaryRow.Kinds.Combination && r.Dimensions[dimension.Header] != dimension.Plain).ToList();
            Assert.NotEmpty(named);
            Assert.All(named, r => Assert.Contains($" [{r.Dimensions[dimension.Header]}]", r.Label, StringComparison.Ordinal));
            Assert.All(named, r => Assert.Contains($"-{r.Dimensions[dimension.Header].Replace("%", "pct", StringComparison.Ordinal)}", r.Picture, StringComparison.Ordinal));
        }

        // Every row's picture is its own.
        Assert.Equal(tables.Summary.Count(r => r.Picture is not null), tables.Summary.Select(r => r.Picture).OfType<string>().Distinct().Count());
    }

    /// <summary>
    /// A table is a summary of its own: its combinations ranked among themselves, each compared with the fastest of
    /// its table and with its own table's psql pipe, in results.md's headline and in "Against the psql pipes".
    /// </summary>
    [Fact]
    public void Each_table_is_ranked_and_compared_with_its_own_psql_pipe()
    {
        var record = TwoTables();

        var tables = ReportTables.Of(record);

        var rows = tables.Summary.Where(r => r.Dimensions.GetValueOrDefault(Compression) != BodyCompression.Gzip).ToDictionary(r => r.Case);
        var (copy, stream) = (CaseNumbers.Runnable.First(), CaseNumbers.Runnable.Skip(1).First());
        Assert.Equal((1, 1.0, 2.0), (rows[copy.Key].Rank!.Value, rows[copy.Key].RatioToFastest!.Value, rows[copy.Key].RatioToPsqlBinary!.Value));
        // Orders' own fastest (400 ms) and own pipe (200 ms); against users' pipe (50 ms) it would read 20×.
        Assert.Equal((4, 2.5, 5.0), (rows[copy.Key + "[orders]"].Rank!.Value, rows[copy.Key + "[orders]"].RatioToFastest!.Value, rows[copy.Key + "[orders]"].RatioToPsqlBinary!.Value));
        Assert.Equal(1, rows[stream.Key + "[orders]"].Rank);
        Assert.Equal(["users", "users", "users", "users", "users", "orders", "orders", "orders", "orders", "orders"], tables.Summary.Select(r => r.Dimensions[Table]));
        Assert.Equal("peer: psql binary pipe [orders]", tables.Summary.Last().Label);
        Assert.Equal("psql-binary[orders]", tables.Summary.Last().Case);
        var floors = FloorRatios.Build(tables);
        Assert.Equal(8, floors.Count);
        Assert.All(floors, f => Assert.Equal(f.Title.EndsWith("[orders]", StringComparison.Ordinal) ? 200.0 : 50.0, f.PeerMedianMs));
        var markdown = MarkdownReport.Render(tables, charts: false);
        Assert.Contains("| peer: psql binary pipe [orders], its median | 200 ms (n = 1) |", markdown);
        Assert.Contains("| #1 EFOffsetPaging × EFTypical [orders] | 1,000 ms: 5.00× (n = 1) |", markdown);
    }

    /// <summary>results.md and results.csv are written from the same record: each headline row's figures are those of its runs' CSV cells.</summary>
    [Theory]
    [MemberData(nameof(RecordFolders))]
    public async Task Markdown_and_csv_agree_on_every_headline_row(string folder)
    {
        var record = await ResultsFile.ReadAsync(Path.Combine(Artifacts, folder, ResultsFile.FileName));
        var tables = ReportTables.Of(record);
        // The cells results.csv is written with, by header.
        var csv = CsvReport.Rows(record).Select(run => CsvReport.Columns(record.Parameters).ToDictionary(c => c.Header, c => c.Cell(run)))
            .Where(r => r["SourceRows"] == $"{record.Parameters.Rows}" && r["Link"] == record.Parameters.Links[0].Name && r["Warmup"] == "False")
            .ToList();
        static double Number(string cell) => double.Parse(cell, System.Globalization.CultureInfo.InvariantCulture);

        foreach (var row in tables.Summary)
        {
            // A verified run flagged as still compiling is left out of the row (and replaced in the session).
            var timed = csv.Where(r => r["Case"] == row.Case && r["Profile"] == row.Profile
                && !(r.GetValueOrDefault("JitUnsettled") == "True" && r["Status"] == RunStatus.Succeeded && r["Verified"] == "True")).ToList();
            var ok = timed.Where(r => r["Status"] == RunStatus.Succeeded && r["Verified"] == "True").ToList();
            var durations = ok.Select(r => Number(r["DurationMs"])).ToList();
            Assert.Equal($"{ok.Count}/{timed.Count}", SummaryColumns.Verified.Cell(row));
            Assert.Equal(ReportFormat.Ms(durations.Min()), SummaryColumns.Best(record.Parameters.Repeat).Cell(row));
            Assert.Equal(ReportFormat.Ms(Statistics.Median(durations)!.Value), SummaryColumns.Median.Cell(row));
            if (row.Kind == SummaryRow.Kinds.Combination)
            {
                var peaks = ok.Select(r => Number(r["SomeServicePeakWorkingSetBytes"])).ToList();
                Assert.Equal(ReportFormat.Bytes(Statistics.Median(peaks)!.Value), SummaryColumns.Service("SomeService", r => r.SomeService)[1].Cell(row));
            }
        }
    }

    /// <summary>Every committed results.md and results.csv is what the code renders from the results.json beside it.</summary>
    [Theory]
    [MemberData(nameof(RecordFolders))]
    public async Task Committed_reports_are_what_their_records_render(string folder)
    {
        var directory = Path.Combine(Artifacts, folder);
        var record = await ResultsFile.ReadAsync(Path.Combine(directory, ResultsFile.FileName));
        // Recorded before --table (no tables in its parameters): every run moved users, and reads so; recorded since,
        // every run names one of the tables asked for.
        var tables = record.Parameters.Tables ?? [SyncData.Postgres.SyncTable.Users.Name];
        Assert.All(record.AllRuns, r => Assert.Contains(r.Table, tables));
        var written = Path.Combine(Path.GetTempPath(), $"syncdata-csv-{Guid.NewGuid():N}.csv");
        try
        {
            await CsvReport.WriteAsync(record, written);

            Assert.Equal(await File.ReadAllTextAsync(Path.Combine(directory, "results.md")), MarkdownReport.Render(ReportTables.Of(record), record.Parameters.Charts));
            Assert.Equal(await File.ReadAllTextAsync(Path.Combine(directory, "results.csv")), await File.ReadAllTextAsync(written));
        }
        finally
        {
            File.Delete(written);
        }
    }

    [Theory]
    [MemberData(nameof(RecordFolders))]
    public async Task Committed_reports_link_only_pictures_that_exist_and_no_address_picked_at_start(string folder)
    {
        var directory = Path.Combine(Artifacts, folder);
        var markdown = await File.ReadAllTextAsync(Path.Combine(directory, "results.md"));

        var pictures = System.Text.RegularExpressions.Regex.Matches(markdown, @"\]\(([^)\s]+\.png)\)").Select(m => m.Groups[1].Value).Distinct().ToList();
        // A --follow record draws no picture: its page is the one table.
        if ((await ResultsFile.ReadAsync(Path.Combine(directory, ResultsFile.FileName))).Follow is null)
        {
            Assert.NotEmpty(pictures);
        }

        Assert.All(pictures, p => Assert.True(File.Exists(Path.Combine(directory, p)), $"{folder}/results.md links {p}, which is not there"));
        Assert.DoesNotMatch(@"127\.0\.0\.1:\d+|\.sock\b", markdown);
    }

    private const string Compression = "Compression";
    private const string Table = "Table";

    internal static CombinationRun Run(Combination c, int round, double ms, bool ok, string table = "users", string compression = BodyCompression.None) => new()
    {
        Number = c.Number, Case = c.Key + (compression == BodyCompression.None ? "" : $"[{compression}]") + (table == "users" ? "" : $"[{table}]"),
        Fetch = c.Fetch.ToString(), Insert = c.Insert.ToString(), Round = round, Warmup = round == 0,
        SourceRows = 1_000, WallMs = ms, RunnerVerified = ok, Table = table, Compression = compression,
        Result = new RunResult
        {
            Id = Guid.NewGuid(), Fetch = c.Fetch.ToString(), Insert = c.Insert.ToString(), Status = ok ? RunStatus.Succeeded : RunStatus.Failed,
            Verified = ok, StartedAt = DateTimeOffset.UnixEpoch, DurationMs = ms, Table = table,
        },
    };

    internal static PeerRun Psql(double ms, string table) => new()
    {
        Peer = PeerDefinition.PsqlBinaryKey, Table = table, Round = 1, Warmup = false, SourceRows = 1_000, Status = RunStatus.Succeeded, Verified = true,
        DurationMs = ms, Scope = PeerScopes.TargetStatements,
    };

    /// <summary>Two cases, each plain and gzip, on users and orders, and each table's psql pipe.</summary>
    private static BenchResults TwoTables()
    {
        var (copy, stream) = (CaseNumbers.Runnable.First(), CaseNumbers.Runnable.Skip(1).First());
        var record = Record(
        [
            Run(copy, 1, 100, true), Run(stream, 1, 200, true), Run(copy, 1, 150, true, compression: BodyCompression.Gzip), Run(stream, 1, 250, true, compression: BodyCompression.Gzip),
            Run(copy, 1, 1_000, true, "orders"), Run(stream, 1, 400, true, "orders"), Run(copy, 1, 900, true, "orders", BodyCompression.Gzip), Run(stream, 1, 450, true, "orders", BodyCompression.Gzip),
        ], [Psql(50, "users"), Psql(200, "orders")]);
        return record with { Parameters = record.Parameters with { Compressions = [BodyCompression.None, BodyCompression.Gzip], Tables = ["users", "orders"] } };
    }

    /// <summary>TwoTables, and the two cases and the pipe once more on users after 1% of the source changed (--changed).</summary>
    private static BenchResults TwoTablesAndAShare()
    {
        var (copy, stream) = (CaseNumbers.Runnable.First(), CaseNumbers.Runnable.Skip(1).First());
        var record = TwoTables();
        CombinationRun Changed(CombinationRun run) => run with { Case = run.Case + "[1%]", Changed = "1%", ChangedShare = 0.01 };
        return record with
        {
            Runs = [.. record.Runs, Changed(Run(copy, 1, 80, true)), Changed(Run(stream, 1, 90, true))],
            Peers = [.. record.Peers, Psql(30, "users") with { Changed = "1%", ChangedShare = 0.01 }],
            Parameters = record.Parameters with { Changed = ["1%"] },
        };
    }

    internal static BenchResults Record(IReadOnlyList<CombinationRun> runs, IReadOnlyList<PeerRun> peers) => new()
    {
        Complete = true,
        Passed = false,
        Environment = new BenchEnvironment
        {
            CpuModel = "", Cores = 2, MemoryBytes = 0, Os = "", Kernel = "", DotnetRuntime = "", PostgresVersion = "",
            NuGetPackages = new Dictionary<string, string>(), Tools = new Dictionary<string, string>(), StartedAt = DateTimeOffset.UnixEpoch,
        },
        Parameters = new BenchParameters
        {
            Rows = 1_000, Sizes = [1_000], SeedMsBySize = new Dictionary<long, double?>(), Repeat = 2, Warmups = 1, Cases = ["*"], Tmpfs = false,
            PostgresSettings = new Dictionary<string, string>(), Database = "local", SeedReused = false, Peers = true, Charts = false,
            SomeServiceUrl = "", ServicesStartedByRunner = true, ProfileCases = [], Links = [NetworkLink.Loopback], Compressions = [BodyCompression.None],
            Profiles = [new ProfileReport(SyncData.Harness.RuntimeProfiles.DefaultName, "", new Dictionary<string, string>(), true)],
        },
        Runs = runs,
        Peers = peers,
        Problems = [],
        Skipped = [],
        SkippedPeers = [],
    };
}
