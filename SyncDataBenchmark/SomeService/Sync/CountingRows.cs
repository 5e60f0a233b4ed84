using SyncData.Shared;

namespace SomeService.Sync;

/// <summary>
/// Counts the rows handed to a writer. A plain enumerator rather than an async iterator: the writers pull a million
/// rows through it, so it adds one forwarded call per row and no state machine of its own.
/// </summary>
internal sealed class CountingRows(IAsyncEnumerable<User> rows, RowCounter counter) : IAsyncEnumerable<User>
{
    public IAsyncEnumerator<User> GetAsyncEnumerator(CancellationToken cancellationToken = default) =>
        new Enumerator(rows.GetAsyncEnumerator(cancellationToken), counter);

    private sealed class Enumerator(IAsyncEnumerator<User> inner, RowCounter counter) : IAsyncEnumerator<User>
    {
        public User Current => inner.Current;

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
