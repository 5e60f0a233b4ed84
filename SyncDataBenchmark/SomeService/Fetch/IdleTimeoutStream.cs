namespace SomeService.Fetch;

/// <summary>
/// A response body that fails when no byte arrives for the idle timeout, and turns a broken connection into a
/// <see cref="SourceStreamException"/>. A slow stream that keeps moving is never cut, however long it takes.
/// </summary>
internal sealed class IdleTimeoutStream : Stream
{
    private readonly Stream _inner;
    private readonly IDisposable _owner;
    private readonly TimeSpan _idleTimeout;
    private readonly CancellationToken _runToken;
    private readonly CancellationTokenSource _idle = new();
    private readonly CancellationTokenSource _linked;
    private long _bytesRead;

    public IdleTimeoutStream(Stream inner, IDisposable owner, TimeSpan idleTimeout, CancellationToken runToken)
    {
        _inner = inner;
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
            var read = await _inner.ReadAsync(buffer, _linked.Token);
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

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count, CancellationToken.None).GetAwaiter().GetResult();

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => _bytesRead; set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _inner.Dispose();
            _owner.Dispose();
            _linked.Dispose();
            _idle.Dispose();
        }

        base.Dispose(disposing);
    }
}
