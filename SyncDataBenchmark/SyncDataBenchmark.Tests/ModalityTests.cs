using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: a row whose runs fall into two groups is named under the headline; one group, or too few runs to tell, is not.</summary>
[Trait("Tier", "Fast")]
public sealed class ModalityTests
{
    private static IReadOnlyList<double> Around(double centre, int n) => [.. Enumerable.Range(0, n).Select(i => centre + (i % 5 - 2) * centre * 0.01)];

    [Fact]
    public void Runs_in_two_groups_are_called_more_than_one_mode()
    {
        var words = Modality.Verdict([.. Around(1_000, 10), .. Around(1_600, 10)]);

        Assert.NotNull(words);
        Assert.Contains("mValue", words, StringComparison.Ordinal);
    }

    [Fact]
    public void Runs_in_one_group_or_too_few_to_tell_raise_nothing()
    {
        Assert.Null(Modality.Verdict(Around(1_000, 20)));
        Assert.Null(Modality.Verdict([.. Around(1_000, 7), .. Around(1_600, 7)]));
    }
}
