using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace SomeService.Fetch;

internal static class JsonRows
{
    /// <summary>
    /// Deserialises a JSON array element by element as bytes arrive (never buffering the body). A body cut off
    /// mid-array is a <see cref="JsonException"/>, reported as a source failure.
    /// </summary>
    public static async IAsyncEnumerable<TRow> ReadAsync<TRow>(Stream body, JsonTypeInfo<TRow> rowJson, string what, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken ct)
    {
        var tail = new TailKeepingStream(body);
        await using var rows = JsonSerializer.DeserializeAsyncEnumerable(tail, rowJson, ct).GetAsyncEnumerator(ct);
        long count = 0;
        while (true)
        {
            bool hasRow;
            try
            {
                hasRow = await rows.MoveNextAsync();
            }
            catch (JsonException ex)
            {
                throw await tail.FindSourceExplanationAsync(ct) is { } why
                    ? new SourceStreamException($"SyncDataSource's {what} broke after {count:N0} rows: {why}", ex)
                    : new SourceStreamException($"SyncDataSource's {what} JSON is incomplete or malformed after {count:N0} rows: {ex.Message}", ex);
            }

            if (!hasRow)
            {
                yield break;
            }

            count++;
            yield return rows.Current ?? throw new SourceStreamException($"SyncDataSource's {what} JSON has a null row at index {count - 1}.");
        }
    }
}
