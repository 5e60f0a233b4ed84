using System.Runtime.CompilerServices;

namespace SomeService.Fetch;

public static class SourceReads
{
    /// <summary>
    /// Passes the source's rows through, turning anything thrown while reading them into a
    /// <see cref="SourceStreamException"/>: a failure is the source's because it happened there, not by its type.
    /// </summary>
    public static async IAsyncEnumerable<TRow> Attributed<TRow>(IAsyncEnumerable<TRow> rows, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var enumerator = rows.GetAsyncEnumerator(ct);
        while (true)
        {
            try
            {
                if (!await enumerator.MoveNextAsync())
                {
                    yield break;
                }
            }
            catch (Exception ex) when (ex is not (SourceStreamException or OperationCanceledException))
            {
                throw new SourceStreamException($"Reading SyncDataSource's rows failed: {ex.GetType().Name}: {ex.Message}", ex);
            }

            yield return enumerator.Current;
        }
    }
}
