using System.Data;
using Npgsql;

namespace SomeService.Sync;

/// <summary>
/// A run's connection is opened once. Once its backend has ended (terminated, the network gone), an EF Core operation
/// that fails on it makes EF drop the run's transaction; EF then opens the connection itself for its next operation and
/// writes there, each SaveChanges committed at once, outside the transaction the run rolls back (RunConnectionGuardTests
/// shows it; a run of EFMerge did it, writing the rest of its table after its backend was terminated). So once the run
/// has its connection open, opening it again fails, and whatever tried fails with it.
/// </summary>
public static class RunConnectionGuard
{
    public const string Refusal =
        "The run's connection to SomeService's database broke mid-run; opening it again would write outside the run's transaction, so the run stops.";

    /// <summary>From now on, <paramref name="connection"/> (open) cannot be opened again.</summary>
    public static void RefuseReopening(NpgsqlConnection connection) => connection.StateChange += OnStateChange;

    private static void OnStateChange(object? sender, StateChangeEventArgs e)
    {
        if (e.CurrentState == ConnectionState.Open)
        {
            throw new InvalidOperationException(Refusal);
        }
    }
}
