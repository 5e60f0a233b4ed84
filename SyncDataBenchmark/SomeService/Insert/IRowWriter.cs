using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>A writer fed with rows as they arrive, whatever the fetch approach.</summary>
public interface IRowWriter : IUserWriter
{
    /// <returns>Rows written, or null when the approach cannot count them (the verification counts anyway).</returns>
    Task<long?> WriteAsync(IAsyncEnumerable<User> rows, WriteTarget target, CancellationToken ct);
}
