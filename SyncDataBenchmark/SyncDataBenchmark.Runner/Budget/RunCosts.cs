namespace SyncDataBenchmark.Runner.Budget;

/// <summary>The costs <see cref="RemainingTime"/> adds up: one timed run, a case's warm-ups when cold, a restart of both services.</summary>
public sealed record RunCosts(Func<PlanItem, double> Run, Func<PlanItem, double> Warmups, double Restart);
