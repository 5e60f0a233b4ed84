using System.CommandLine;
using SyncData.Harness;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the sweep's exponent fit, its run-time prediction, --rows lists and the warm-up policy.</summary>
[Trait("Tier", "Fast")]
public sealed class GrowthTests
{
    [Theory]
    [InlineData(1.0)]
    [InlineData(2.0)]
    [InlineData(0.0)]
    [InlineData(1.37)]
    public void A_known_power_law_gives_its_exponent(double exponent)
    {
        var points = new[] { 1_000d, 10_000d, 100_000d, 1_000_000d }.Select(x => (x, 3.5 * Math.Pow(x, exponent)));

        var fit = Growth.Fit(points);

        Assert.NotNull(fit);
        Assert.Equal(exponent, fit.Exponent, 3);
        Assert.Equal(4, fit.Points);
    }

    [Fact]
    public void Noise_is_averaged_by_least_squares_not_taken_from_the_end_points()
    {
        // y = x with the third of four points 4× high: the end points alone would say exactly 1; least squares on
        // log10 gives 1 + 1.5·0.5·log10(4)/5 ≈ 1.060.
        var fit = Growth.Fit([(1_000, 1_000), (10_000, 10_000), (100_000, 400_000), (1_000_000, 1_000_000)]);

        Assert.Equal(1.060, fit!.Exponent, 3);
        Assert.Equal(4, fit.Points);
    }

    [Fact]
    public void Fewer_than_two_sizes_give_no_exponent()
    {
        Assert.Null(Growth.Fit([]));
        Assert.Null(Growth.Fit([(100_000, 5_000)]));
        Assert.Null(Growth.Fit([(100_000, 5_000), (100_000, 6_000)]));
        // A size without a usable figure does not count.
        Assert.Null(Growth.Fit([(100_000, 5_000), (1_000_000, 0)]));
    }

    [Fact]
    public void The_prediction_follows_the_fitted_exponent_from_the_largest_size()
    {
        // Quadratic: 10 s at 100k, 1,000 s at 1M → 100,000 s at 10M.
        var predicted = Growth.PredictMs([(100_000, 10_000), (1_000_000, 1_000_000)], 10_000_000);

        Assert.Equal(100_000_000, predicted!.Value, 0);
    }

    [Fact]
    public void The_prediction_is_at_least_linear()
    {
        // One size: assumed linear. A flat fit (fixed costs at small sizes) is not trusted to stay flat.
        Assert.Equal(110_000, Growth.PredictMs([(100_000, 11_000)], 1_000_000)!.Value, 0);
        Assert.Equal(1_000, Growth.PredictMs([(1_000, 90), (10_000, 100)], 100_000)!.Value, 0);
        Assert.Null(Growth.PredictMs([], 1_000_000));
    }

    [Theory]
    [InlineData("1000", new long[] { 1000 })]
    [InlineData("100000,1000000,10000000", new long[] { 100_000, 1_000_000, 10_000_000 })]
    [InlineData("10000000, 100000,1000000", new long[] { 100_000, 1_000_000, 10_000_000 })]
    public void Rows_accepts_a_list_of_sizes_smallest_first(string text, long[] sizes)
    {
        var (value, errors) = ParseRows(text);

        Assert.Empty(errors);
        Assert.Equal(sizes, value);
    }

    [Theory]
    [InlineData("1000,1000")]
    [InlineData("1000,")]
    [InlineData("1000;2000")]
    [InlineData("0,1000")]
    [InlineData("2147483648,1000")]
    public void Rows_refuses_a_bad_list_in_one_line(string text)
    {
        var (_, errors) = ParseRows(text);

        var error = Assert.Single(errors);
        Assert.StartsWith("--rows:", error);
        Assert.Contains("one or more comma-separated sizes, each named once, each a whole number from 1 to 2,147,483,647", error);
    }

    [Fact]
    public async Task A_long_step_says_it_is_still_going_and_a_short_one_says_nothing()
    {
        // The step ends once the heartbeat has spoken twice (not after a fixed sleep: a loaded machine delays timers).
        var lines = new List<string>();
        var spokeTwice = new TaskCompletionSource();
        var result = await Heartbeat.RunAsync(
            "seeding",
            async () => { await spokeTwice.Task.WaitAsync(TimeSpan.FromSeconds(30)); return 7; },
            line => { lines.Add(line); if (lines.Count == 2) { spokeTwice.TrySetResult(); } },
            TimeSpan.FromMilliseconds(100));
        Assert.Equal(7, result);
        Assert.All(lines, l => Assert.Contains("seeding", l));
        var said = lines.Count;
        await Task.Delay(300);
        Assert.Equal(said, lines.Count); // silent once the step is over

        var quiet = new List<string>();
        await Heartbeat.RunAsync("fast", () => Task.CompletedTask, quiet.Add, TimeSpan.FromMilliseconds(100));
        Assert.Empty(quiet);
    }

    private static (long[]? Value, IReadOnlyList<string> Errors) ParseRows(string text)
    {
        var rows = new Option<long[]>("--rows") { CustomParser = r => OptionParsing.Sizes(r, "--rows", 1, int.MaxValue) ?? [] };
        var parsed = new RootCommand { rows }.Parse(["--rows", text]);
        return (parsed.Errors.Count == 0 ? parsed.GetValue(rows) : null, parsed.Errors.Select(e => e.Message).ToList());
    }
}
