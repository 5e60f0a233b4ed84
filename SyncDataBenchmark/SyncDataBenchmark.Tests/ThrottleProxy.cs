using System.Net;
using System.Net.Sockets;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// A loopback TCP proxy in front of SyncDataSource that can make the source slow (pauses between bursts), stall
/// (stop forwarding but keep the connection open) or hold a run mid-stream (a trickle: never silent long enough to
/// trip an idle timeout, never fast enough to finish) — the network conditions a real source can produce.
/// </summary>
public sealed class ThrottleProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly Func<Uri> _upstream;

    /// <summary>After this many response bytes on a connection, forward nothing more (null: never stall).</summary>
    public long? StallAfterBytes { get; set; }

    /// <summary>Pause this long after every <see cref="BurstBytes"/> response bytes (null: full speed).</summary>
    public TimeSpan? PauseBetweenBursts { get; set; }

    public int BurstBytes { get; set; } = 4 * 1024 * 1024;

    /// <summary>
    /// Forward at most <see cref="TrickleBytes"/> every <see cref="TricklePause"/>: a run started now is certainly
    /// still in progress when a fault is injected, however fast or loaded the machine.
    /// </summary>
    public bool Holding
    {
        get => _holding;
        set => _holding = value;
    }

    // Set by the test, read by the pumps on pool threads.
    private volatile bool _holding;

    public const int TrickleBytes = 16 * 1024;

    public static readonly TimeSpan TricklePause = TimeSpan.FromMilliseconds(250);

    public Uri BaseAddress { get; }

    public ThrottleProxy(Func<Uri> upstream)
    {
        _upstream = upstream;
        _listener.Start();
        BaseAddress = new Uri($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
        _ = AcceptLoop();
    }

    /// <summary>Full speed again: every test ends with this (FaultTests.DisposeAsync), passed or failed.</summary>
    public void Reset()
    {
        StallAfterBytes = null;
        PauseBetweenBursts = null;
        BurstBytes = 4 * 1024 * 1024;
        Holding = false;
    }

    private async Task AcceptLoop()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stop.Token);
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }

            _ = Serve(client);
        }
    }

    private async Task Serve(TcpClient client)
    {
        using var _ = client;
        // A small receive window towards the source: its socket buffers cannot swallow a whole test table, so a
        // held or slowed relay keeps the source's query running (back-pressure reaches its PostgreSQL backend).
        using var upstream = new TcpClient { ReceiveBufferSize = 64 * 1024 };
        try
        {
            var target = _upstream();
            await upstream.ConnectAsync(target.Host, target.Port, _stop.Token);
            using var cancel = CancellationTokenSource.CreateLinkedTokenSource(_stop.Token);
            var requests = Pump(client.GetStream(), upstream.GetStream(), throttle: false, cancel.Token);
            var responses = Pump(upstream.GetStream(), client.GetStream(), throttle: true, cancel.Token);
            await Task.WhenAny(requests, responses);
            await cancel.CancelAsync();
        }
        catch (Exception ex) when (ex is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // A side went away: close both, as a real proxy would.
        }
    }

    private async Task Pump(Stream from, Stream to, bool throttle, CancellationToken ct)
    {
        var buffer = new byte[16 * 1024];
        long total = 0, sinceBurst = 0;
        try
        {
            while (true)
            {
                var read = await from.ReadAsync(buffer, ct);
                if (read == 0)
                {
                    return;
                }

                if (throttle && StallAfterBytes is { } stall && total + read > stall)
                {
                    await Task.Delay(Timeout.Infinite, ct);
                }

                for (var offset = 0; offset < read;)
                {
                    var holding = throttle && Holding;
                    var piece = holding ? Math.Min(read - offset, TrickleBytes) : read - offset;
                    await to.WriteAsync(buffer.AsMemory(offset, piece), ct);
                    offset += piece;
                    total += piece;
                    sinceBurst += piece;
                    if (holding)
                    {
                        await Task.Delay(TricklePause, ct);
                    }
                    else if (throttle && PauseBetweenBursts is { } pause && sinceBurst >= BurstBytes)
                    {
                        sinceBurst = 0;
                        await Task.Delay(pause, ct);
                    }
                }
            }
        }
        catch (Exception ex) when (ex is IOException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        _stop.Dispose();
    }
}
