namespace SomeService.Fetch;

/// <summary>
/// A response body that fails when no byte arrives for the idle timeout, and turns a broken connection into a
/// <see cref="SourceStreamException"/>. A slow stream that keeps moving is never cut, however long it takes.
/// </summary>
internal sealed class IdleTimeoutStream : ReadOnlyBodyStream
{
    private readonly IDisposable _owner;
    private readonly TimeSpan _idleTimeout;
    private readonly CancellationToken _runToken;
    private readonly CancellationTokenSource _idle = new();
    private readonly CancellationTokenSource _linked;
    private long _bytesRead;

    public IdleTimeoutStream(Stream inner, IDisposable owner, TimeSpan idleTimeout, CancellationToken runToken)
        : base(inner)
    {
        _owner = owner;
        _idleTimeout = idleTimeout;
        _runToken = runToken;
        _linked = CancellationTokenSource.CreateLinkedTokenSource(runToken, _idle.Token);
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        _idle.CancelAfter(_idleTimeout);
        try
        {
            var read = await Inner.ReadAsync(buffer, _linked.Token);
            _bytesRead += read;
            return read;
        }
        catch (OperationCanceledException ex) when (_idle.IsCancellationRequested && !_runToken.IsCancellationRequested)
        {
            throw new SourceStreamException(
                $"SyncDataSource sent nothing for {_idleTimeout.TotalSeconds:0.#} s after {_bytesRead:N0} bytes (idle timeout).", ex);
        }
        catch (Exception ex) when (ex is IOException or HttpRequestException)
        {
            throw new SourceStreamException($"SyncDataSource's stream broke after {_bytesRead:N0} bytes: {ex.Message}", ex);
        }
        finally
        {
            _idle.CancelAfter(Timeout.InfiniteTimeSpan);
        }
    }

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count, CancellationToken.None).GetAwaiter().GetResult();

    public override long Position { get => _bytesRead; set => throw new NotSupportedException(); }

    protected override void Dispose(bool disposing)
    {
        // The body first, then the response that owns it.
        base.Dispose(disposing);
        if (disposing)
        {
            _owner.Dispose();
            _linked.Dispose();
            _idle.Dispose();
        }
    }
}
