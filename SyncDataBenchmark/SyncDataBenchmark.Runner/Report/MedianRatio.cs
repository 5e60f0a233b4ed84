using System.Text.Json.Serialization;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>
/// One case's median time over another's (median/median, the one ratio the reports show), with the interval
/// <see cref="RunStatistics.Ratio"/> gives it.
/// </summary>
/// <param name="Ratio">The sample median of the case's runs over the other's.</param>
/// <param name="Lower">The lower end: the case's median's lower bound over the other's upper bound.</param>
/// <param name="Upper">The upper end: the case's upper bound over the other's lower bound.</param>
public sealed record MedianRatio(double Ratio, double Lower, double Upper)
{
    /// <summary>The interval's width as a share of the ratio: what --ci-width is compared with.</summary>
    [JsonIgnore]
    public double Width => Ratio > 0 ? (Upper - Lower) / Ratio : double.PositiveInfinity;

    /// <summary>The interval lies wholly on one side of 1: the two are told apart.</summary>
    [JsonIgnore]
    public bool ExcludesOne => Upper < 1 || Lower > 1;
}
