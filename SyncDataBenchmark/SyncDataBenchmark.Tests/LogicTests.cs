using SomeService.Fetch;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the pure logic behind the runner's options and reports and the timestamp error text.</summary>
[Trait("Tier", "Fast")]
public sealed class LogicTests
{
    /// <summary>
    /// The tick sum's stated precision grows with the heaps whose edges it spans: 1.5 MiB apart on a small window is a
    /// disagreement with 2 heaps (1 MiB allowed), none with 16 (8 MiB: each heap's unticked remainders at the edges).
    /// </summary>
    [Theory]
    [InlineData(2, null, null, 1_148_576, false)]
    [InlineData(16, null, null, 8_488_608, true)]
    [InlineData(0, 8, 4, 4_294_304, true)]
    [InlineData(0, 1, 2, 1_148_576, false)]
    public void The_tick_sums_precision_scales_with_the_heap_count(long runtimeHeaps, int? heapsAtStart, int? heapsAtEnd, long margin, bool agree)
    {
        var settings = runtimeHeaps > 0 ? new RuntimeSettings(true, true, 1, 200L << 20, runtimeHeaps, 70) : null;
        var figures = new ServiceFigures(AllocatedBytes: 10_000_000, 0, 0, 0, 0, 0, null, 0, Runtime: settings,
            HeapCountStart: heapsAtStart, HeapCountEnd: heapsAtEnd, AllocationTickBytes: 10_000_000 + (3L << 19));

        Assert.Equal(agree, figures.AllocationTicksAgree);
        Assert.Equal(margin, figures.AllocationTickPrecision());
    }

    [Theory]
    [InlineData(new string[0], "*:*")]
    [InlineData(new[] { "NpgsqlCopy:*" }, "NpgsqlCopy:*")]
    [InlineData(new[] { "npgsqlcopy:npgsqlcopyraw" }, "NpgsqlCopy:NpgsqlCopyRaw")]
    [InlineData(new[] { "EFStream:NpgsqlCopy, *:EFTypical" }, "EFStream:NpgsqlCopy|*:EFTypical")]
    [InlineData(new[] { "EFStream:NpgsqlCopy", "*:EFTypical" }, "EFStream:NpgsqlCopy|*:EFTypical")]
    [InlineData(new[] { " , " }, "*:*")]
    public void Case_selection_parses_patterns(string[] values, string normalised)
    {
        var selection = CaseSelection.Parse(values, out var error);

        Assert.Null(error);
        Assert.Equal(normalised, string.Join('|', selection.Patterns));
    }

    [Fact]
    public void Case_selection_matches_by_either_side()
    {
        var selection = CaseSelection.Parse(["NpgsqlCopy:*", "*:EFTypical"], out _);

        Assert.True(selection.Matches(new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopyRaw")));
        Assert.True(selection.Matches(new FetchApproach("EFStream"), new InsertApproach("EFTypical")));
        Assert.False(selection.Matches(new FetchApproach("EFStream"), new InsertApproach("NpgsqlCopy")));
    }

    [Theory]
    [InlineData("NpgsqlCopy", "is not a case: use Fetch:Insert")]
    [InlineData("a:b:c", "is not a case")]
    [InlineData("EFStreem:*", "'EFStreem' in 'EFStreem:*' is not a fetch approach. Valid values:")]
    [InlineData("*:Copy", "'Copy' in '*:Copy' is not an insert approach")]
    [InlineData("EFStream:NpgsqlCopyRaw", "EFStream:NpgsqlCopyRaw cannot run")]
    [InlineData("EFStream:NpgsqlCopyRawTuned", "EFStream:NpgsqlCopyRawTuned cannot run")]
    [InlineData(":", "'' in ':' is not a fetch approach")]
    public void Case_selection_errors_name_the_pattern(string value, string message)
    {
        CaseSelection.Parse([value], out var error);

        Assert.NotNull(error);
        Assert.Contains(message, error);
    }

    [Theory]
    [InlineData(new double[0], null)]
    [InlineData(new[] { 5.0 }, 5.0)]
    [InlineData(new[] { 3.0, 1.0, 2.0 }, 2.0)]
    [InlineData(new[] { 4.0, 1.0, 3.0, 2.0 }, 2.5)]
    public void Median_of_odd_and_even_counts(double[] values, double? median) =>
        Assert.Equal(median, Statistics.Median(values));

    [Fact]
    public void Peer_scripts_come_from_their_folders_with_every_placeholder_filled()
    {
        foreach (var peer in PeerDefinition.All.SelectMany(p => SyncData.Postgres.SyncTable.All.Select(p.For)))
        {
            var texts = new[] { peer.Script, peer.Setup ?? "", peer.Teardown ?? "" }.Concat(peer.Files.Values);
            Assert.All(texts, t => Assert.DoesNotContain("{{", t, StringComparison.Ordinal));
        }

        var orders = SyncData.Postgres.SyncTable.Orders;
        Assert.Contains($"copy {orders.Name} ({orders.Columns}) from pstdin (format text)", PeerDefinition.All.Single(p => p.Key == PeerDefinition.PsqlTextKey).For(orders).Files["target.sql"]);
        // A placeholder no value fills is an error when the folder is read, not a script that fails an hour later.
        Assert.Contains("{{format}}", Assert.Throws<InvalidOperationException>(() => PeerFolder.Files("PsqlPipe", new Dictionary<string, string>())).Message);
    }

    [Fact]
    public async Task Csv_has_each_services_columns_under_its_prefix_filled_from_the_record()
    {
        // The reports come from the record alone: the committed full run's results.json, written as CSV.
        var report = await ResultsFile.ReadAsync(Path.Combine(SyncData.Harness.Lab.RepositoryRoot, "artifacts", ResultsFile.FileName));
        var written = Path.Combine(Path.GetTempPath(), $"syncdata-csv-{Guid.NewGuid():N}.csv");
        try
        {
            await CsvReport.WriteAsync(report, written);

            var lines = await File.ReadAllLinesAsync(written);
            string[] service = ["AllocatedBytes", "AllocatedBytesUnavailable", "AllocationTickBytes", "AllocationTickUnavailable", "HeapCountStart", "HeapCountEnd", "PeakWorkingSetBytes", "GcGen0", "GcGen1", "GcGen2", "GcPauseMs", "CpuTimeMs", "JitTimeMs", "JitMethods"];
            string[] header =
            [
                // The full run records its tables (users alone), so Table is a column; Changed is not (no share asked).
                "Kind", "Case", "Profile", "Number", "Fetch", "Insert", "Compression", "Table", "Round", "Warmup", "SourceRows", "Status", "Verified", "Rows", "DurationMs", "RowsPerSecond",
                "WallMs", "PageSize", "BatchSize", "WireBytes", "BodyBytes", .. service.Select(c => "SomeService" + c), .. service.Select(c => "SyncDataSource" + c), "Scope",
                "Link", "LinkSourceToTargetBytes", "LinkTargetToSourceBytes", "LinkBytesPerRow", "RunId", "Error",
            ];
            Assert.Equal(string.Join(',', header), lines[0]);
            // A line without quoted fields (an error text may hold commas), and the run it was written from.
            var at = Enumerable.Range(1, report.Runs.Count).First(i => !lines[i].Contains('"', StringComparison.Ordinal) && report.Runs[i - 1].Result?.SomeService is not null);
            var first = lines[at].Split(',');
            var run = report.Runs[at - 1].Result!;
            Assert.Equal(run.SomeService!.AllocatedBytes?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "", first[Array.IndexOf(header, "SomeServiceAllocatedBytes")]);
            Assert.Equal(run.SyncDataSource!.PeakWorkingSetBytes.ToString(System.Globalization.CultureInfo.InvariantCulture), first[Array.IndexOf(header, "SyncDataSourcePeakWorkingSetBytes")]);
            // A session on loopback only: no bytes counted, and no link tables.
            Assert.Equal("loopback", first[Array.IndexOf(header, "Link")]);
            Assert.Equal("", first[Array.IndexOf(header, "LinkBytesPerRow")]);
            Assert.DoesNotContain("## Across a link", MarkdownReport.Render(ReportTables.Of(report), charts: true));
            Assert.Equal(run.SyncDataSource!.CpuTimeMs.ToString(System.Globalization.CultureInfo.InvariantCulture), first[Array.IndexOf(header, "SyncDataSourceCpuTimeMs")]);
            Assert.Equal("none", first[Array.IndexOf(header, "Compression")]);
            Assert.Equal("users", first[Array.IndexOf(header, "Table")]);
            Assert.Equal(1 + report.Runs.Count + report.Peers.Count, lines.Length);
        }
        finally
        {
            File.Delete(written);
        }
    }

    [Fact]
    public void Sample_standard_deviation_needs_two_values()
    {
        Assert.Null(Statistics.StdDev([7.0]));
        Assert.Equal(Math.Sqrt(2.5), Statistics.StdDev([1.0, 2.0, 3.0, 4.0, 5.0])!.Value, 12);
    }

    [Fact]
    public void Thinning_keeps_short_series_and_the_peak_first_and_last_of_long_ones()
    {
        static RuntimeSample Sample(int i, long workingSet) => new(i * 50.0, workingSet, i * 1000L, [i, i / 10, i / 100]);
        var shortSeries = Enumerable.Range(0, SampleThinning.MaxPoints).Select(i => Sample(i, 100)).ToList();
        Assert.Same(shortSeries, SampleThinning.Thin(shortSeries));

        var longSeries = Enumerable.Range(0, 10_001).Select(i => Sample(i, i == 4_321 ? 999_999 : 100 + i % 7)).ToList();
        var thinned = SampleThinning.Thin(longSeries);

        Assert.InRange(thinned.Count, 2, SampleThinning.MaxPoints);
        Assert.Equal(longSeries[0], thinned[0]);
        Assert.Equal(999_999, thinned.Max(s => s.WorkingSetBytes));
        Assert.Equal(longSeries[^1].AllocatedBytes, thinned[^1].AllocatedBytes);
        Assert.Equal(longSeries[^1].GcCollections, thinned[^1].GcCollections);
        Assert.True(thinned.Zip(thinned.Skip(1)).All(p => p.First.ElapsedMs < p.Second.ElapsedMs), "samples out of order");
    }

    [Theory]
    [InlineData("Host=127.0.0.1;Port=5433;Username=postgres;Database=source", false, "host='127.0.0.1' port='5433' dbname='source' user='postgres'")]
    [InlineData("Host=::1;Port=5432;Username=u;Password=p w;Database=target", false, "host='::1' port='5432' dbname='target' user='u'")]
    [InlineData("Host=::1;Port=5432;Username=u;Password=it's\\;Database=target", true, "host='::1' port='5432' dbname='target' user='u' password='it\\'s\\\\'")]
    [InlineData("Host=/tmp/syncdata-pg-x;Port=6000;Username=postgres;Database=a b", false, "host='/tmp/syncdata-pg-x' port='6000' dbname='a b' user='postgres'")]
    [InlineData("Host=db;Username=us@r;Database=d;SSL Mode=Require", false, "host='db' port='5432' dbname='d' user='us@r' sslmode='require'")]
    public void Libpq_conninfo_from_an_npgsql_connection_string(string connection, bool withPassword, string conninfo) =>
        Assert.Equal(conninfo, Conninfo.From(connection, withPassword));

    [Theory]
    [InlineData(0L, "2000-01-01 00:00:00")]
    [InlineData(1L, "2000-01-01 00:00:00.000001")]
    [InlineData(-1L, "1999-12-31 23:59:59.999999")]
    [InlineData(36_000_000_000L, "2000-01-01 10:00:00")]
    [InlineData(1_000_000L * 86_400 * 60, "2000-03-01 00:00:00")] // 2000 is a leap year
    [InlineData(252_455_616_000_000_000L, "10000-01-01 00:00:00")]
    [InlineData(9_223_371_331_199_999_999L, "294276-12-31 23:59:59.999999")] // PostgreSQL's largest finite timestamp
    [InlineData(-63_082_281_600_000_000L, "0001-01-01 00:00:00")]
    [InlineData(-63_082_281_600_000_001L, "0001-12-31 23:59:59.999999 BC")]
    [InlineData(-211_813_488_000_000_000L, "4714-11-24 00:00:00 BC")] // its smallest
    [InlineData(long.MaxValue, "infinity")]
    [InlineData(long.MinValue, "-infinity")]
    public void Postgres_timestamp_text_as_postgres_shows_it(long micros, string text) =>
        Assert.Equal(text, PostgresTimestamp.Format(micros));

    [Theory]
    [InlineData("1", true, new long[] { 1 })]
    [InlineData("100000,1000000", true, new long[] { 100_000, 1_000_000 })]
    [InlineData("2147483647", true, new long[] { int.MaxValue })]
    [InlineData("2147483648", false, new long[0])]
    [InlineData("0", false, new long[0])]
    [InlineData("-1", false, new long[0])]
    [InlineData("+5", false, new long[0])]
    [InlineData("1e3", false, new long[0])]
    [InlineData("1,000", false, new long[0])] // 000 is below 1: a thousands separator is not a list
    [InlineData("abc", false, new long[0])]
    [InlineData("", false, new long[0])]
    [InlineData("5,", false, new long[0])]
    public void Runner_numbers_are_digits_in_range_and_lists_are_comma_separated(string text, bool ok, long[] numbers)
    {
        Assert.Equal(ok, OptionParsing.TryParseNumbers(text, 1, int.MaxValue, out var parsed));
        if (ok)
        {
            Assert.Equal(numbers, parsed);
        }
    }
}
