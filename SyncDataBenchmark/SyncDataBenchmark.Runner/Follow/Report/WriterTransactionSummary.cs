using SyncDataBenchmark.Runner.Report;
using Perfolizer.Mathematics.QuantileEstimators;

namespace SyncDataBenchmark.Runner.Follow.Report;

/// <summary>
/// What a follow run's writers paid per transaction: pgbench's own per-transaction log (-l), each transaction's time
/// from its actual start to its end (the log's time minus its schedule lag under -R). The median with its interval
/// (RunStatistics.MedianInterval, Perfolizer) and Perfolizer's sample p99; n is the transactions logged.
/// </summary>
public sealed record WriterTransactionSummary(int Count, double MedianMs, double? LowerMs, double? UpperMs, double P99Ms)
{
    /// <summary>Null without transactions.</summary>
    public static WriterTransactionSummary? Of(IReadOnlyList<double> transactionMs)
    {
        if (transactionMs.Count == 0)
        {
            return null;
        }

        var interval = RunStatistics.MedianInterval(transactionMs);
        return new WriterTransactionSummary(transactionMs.Count, RunStatistics.Median(transactionMs)!.Value, interval?.Lower, interval?.Upper,
            SimpleQuantileEstimator.Instance.Quantile(transactionMs, 0.99));
    }
}
