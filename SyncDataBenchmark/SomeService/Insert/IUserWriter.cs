using Npgsql;
using SomeService.Fetch;
using SomeService.Sync;

namespace SomeService.Insert;

/// <summary>
/// The write half of a run: moves every row from <paramref name="source"/> into the target's users table on
/// <paramref name="connection"/>, inside <paramref name="transaction"/> (which the runner commits or rolls back).
/// </summary>
public interface IUserWriter
{
    /// <returns>Rows written, or null when the approach cannot count them (the verification counts anyway).</returns>
    Task<long?> WriteAsync(IUserSource source, SyncRequest request, NpgsqlConnection connection, NpgsqlTransaction transaction, CancellationToken ct);

    /// <summary>Whether <see cref="SyncRequest.BatchSize"/> means anything to this approach (recorded only if so).</summary>
    bool UsesBatches { get; }
}
