namespace SomeService.Sync;

/// <summary>
/// Counts the rows handed to a writer. A plain enumerator rather than an async iterator: the writers pull a million
/// rows through it, so it adds one forwarded call per row and no state machine of its own.
/// </summary>
internal sealed class CountingRows<TRow>(IAsyncEnumerable<TRow> rows, RowCounter counter) : IAsyncEnumerable<TRow>
{
    public IAsyncEnumerator<TRow> GetAsyncEnumerator(CancellationToken cancellationToken = default) =>
        new Enumerator(rows.GetAsyncEnumerator(cancellationToken), counter);

    private sealed class Enumerator(IAsyncEnumerator<TRow> inner, RowCounter counter) : IAsyncEnumerator<TRow>
    {
        public TRow Current => inner.Current;

        public ValueTask<bool> MoveNextAsync()
        {
            var next = inner.MoveNextAsync();
            if (next.IsCompletedSuccessfully)
            {
                return new ValueTask<bool>(Counted(next.Result));
            }

            return Awaited(next);
        }

        private async ValueTask<bool> Awaited(ValueTask<bool> next) => Counted(await next);

        private bool Counted(bool hasRow)
        {
            if (hasRow)
            {
                counter.Add(1);
            }
            else
            {
                counter.Flush();
            }

            return hasRow;
        }

        public ValueTask DisposeAsync()
        {
            counter.Flush();
            return inner.DisposeAsync();
        }
    }
}
