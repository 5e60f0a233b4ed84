using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace SyncData.Harness;

/// <summary>
/// A program this process starts: output read line by line from the start (a full pipe would stall the child), a
/// bounded tail kept for error messages, and the whole process tree killed on dispose, so nothing the lab starts
/// outlives it by accident. The one place the harness, the runner and the tests start processes.
/// </summary>
public sealed class ChildProcess : IAsyncDisposable
{
    /// <summary>A finished run: its exit code, its output (whole streams only with KeepAllOutput) and how long it took.</summary>
    public sealed record Result(int ExitCode, string StandardOutput, string StandardError, string RecentOutput, TimeSpan Elapsed);

    private readonly Process _process;
    private readonly ChildProcessOptions _options;
    private readonly Queue<string> _tail = new();
    private readonly StringBuilder _stdout = new();
    private readonly StringBuilder _stderr = new();
    private readonly Stopwatch _clock = new();
    private TimeSpan? _elapsed;
    private bool _disposed;

    private ChildProcess(Process process, ChildProcessOptions options)
    {
        _process = process;
        _options = options;
    }

    public int Id => _process.Id;
    public bool HasExited => _process.HasExited;
    public int ExitCode => _process.ExitCode;

    /// <summary>The last lines printed on either stream, for failure messages.</summary>
    public string RecentOutput
    {
        get
        {
            lock (_tail)
            {
                return string.Join('\n', _tail);
            }
        }
    }

    /// <summary>Standard output so far, each line ending in \n (empty unless KeepAllOutput).</summary>
    public string StandardOutput
    {
        get
        {
            lock (_tail)
            {
                return _stdout.ToString();
            }
        }
    }

    /// <summary>Standard error so far, each line ending in \n (empty unless KeepAllOutput).</summary>
    public string StandardError
    {
        get
        {
            lock (_tail)
            {
                return _stderr.ToString();
            }
        }
    }

    /// <summary>From just before the start until the exit was seen (with the output read to its end); null while running.</summary>
    public TimeSpan? Elapsed => _elapsed;

    /// <exception cref="Win32Exception">The program cannot be found or run.</exception>
    public static ChildProcess Start(string program, IEnumerable<string> arguments, ChildProcessOptions? options = null)
    {
        options ??= new ChildProcessOptions();
        // Through setsid a missing program would be setsid's exit 1: say it as Process.Start would.
        if (!Found(program, options.WorkingDirectory))
        {
            throw new Win32Exception(2, $"An error occurred trying to start process '{program}': No such file or directory");
        }

        var start = StartInfo(program, arguments, options);
        var process = new Process { StartInfo = start };
        var child = new ChildProcess(process, options);
        process.OutputDataReceived += (_, e) => child.Remember(e.Data, child._stdout);
        process.ErrorDataReceived += (_, e) => child.Remember(e.Data, child._stderr);
        child._clock.Start();
        try
        {
            process.Start();
        }
        catch
        {
            process.Dispose();
            throw;
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>Whether <paramref name="program"/> names an existing file, or one on PATH.</summary>
    private static bool Found(string program, string? workingDirectory) =>
        program.Contains('/', StringComparison.Ordinal) ? File.Exists(program) || (workingDirectory is not null && File.Exists(Path.Combine(workingDirectory, program)))
        : (System.Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries).Any(dir => File.Exists(Path.Combine(dir, program)));

    /// <summary>The program (in <see cref="ChildProcessOptions.Namespace"/>, as <see cref="ChildProcessOptions.AsUser"/>, if given), its arguments, directory and environment.</summary>
    private static ProcessStartInfo StartInfo(string program, IEnumerable<string> arguments, ChildProcessOptions options)
    {
        // A session of its own (setsid, which execs: the pid is kept): a terminal's Ctrl-C reaches only the program the
        // user started, which stops its children in order (a follower before its service, a service before its cluster),
        // rather than every child dying at once under it.
        var prefix = new List<string> { "setsid" };
        if (options.Namespace is { } ns)
        {
            prefix.AddRange(["ip", "netns", "exec", ns]);
        }

        if (options.AsUser is { } user)
        {
            prefix.AddRange(["runuser", "-u", user, "--"]);
        }

        var start = new ProcessStartInfo(prefix[0])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (options.WorkingDirectory is { } directory)
        {
            start.WorkingDirectory = directory;
        }

        foreach (var a in prefix.Skip(1).Append(program).Concat(arguments))
        {
            start.ArgumentList.Add(a);
        }

        SetEnvironment(start, options.Environment);
        return start;
    }

    /// <summary>Each variable set, or removed where its value is null.</summary>
    private static void SetEnvironment(ProcessStartInfo start, IReadOnlyDictionary<string, string?>? environment)
    {
        foreach (var (key, value) in environment ?? new Dictionary<string, string?>())
        {
            if (value is null)
            {
                start.Environment.Remove(key);
            }
            else
            {
                start.Environment[key] = value;
            }
        }
    }

    /// <summary>
    /// Starts the program and waits for it to finish. Cancellation or the timeout kills its process tree, then throws
    /// OperationCanceledException or TimeoutException respectively.
    /// </summary>
    public static async Task<Result> RunAsync(string program, IEnumerable<string> arguments, ChildProcessOptions? options = null,
        TimeSpan? timeout = null, CancellationToken ct = default)
    {
        var argumentList = arguments.ToList();
        await using var child = Start(program, argumentList, options);
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        if (timeout is { } limit)
        {
            deadline.CancelAfter(limit);
        }

        try
        {
            await child.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            await child.KillAsync();
            throw new TimeoutException($"{program} {string.Join(' ', argumentList)} did not finish within {timeout!.Value.TotalSeconds} s.");
        }
        catch (OperationCanceledException)
        {
            await child.KillAsync();
            throw;
        }

        return new Result(child.ExitCode, child.StandardOutput, child.StandardError, child.RecentOutput, child._elapsed!.Value);
    }

    /// <summary>Waits for the exit and for both streams to be read to their end. Cancelling stops the wait, not the process.</summary>
    public async Task<int> WaitForExitAsync(CancellationToken ct = default)
    {
        await _process.WaitForExitAsync(ct);
        _elapsed ??= _clock.Elapsed;
        return _process.ExitCode;
    }

    /// <summary>Sends a signal (TERM, QUIT, STOP, CONT, …) to this process alone, as `kill` would; returns kill's exit code.</summary>
    public Task<int> SignalAsync(string signal) => SignalAsync(Id, signal);

    /// <summary>
    /// Sends a signal to this process's whole process group, as a terminal's Ctrl-C (INT) reaches the foreground job:
    /// the child leads its own (setsid), so the group is it and whatever it started without a session of its own.
    /// </summary>
    public async Task<int> SignalGroupAsync(string signal) =>
        (await RunAsync("kill", [$"-{signal}", "--", $"-{Id.ToString(CultureInfo.InvariantCulture)}"])).ExitCode;

    /// <summary>Sends a signal to any process by id through `kill`; returns kill's exit code (non-zero: no such process, or not ours).</summary>
    public static async Task<int> SignalAsync(int pid, string signal) =>
        (await RunAsync("kill", KillArguments(pid, signal))).ExitCode;

    /// <summary><see cref="SignalAsync(int, string)"/> for callers that cannot await.</summary>
    public static int Signal(int pid, string signal)
    {
        using var kill = Start("kill", KillArguments(pid, signal))._process;
        kill.WaitForExit();
        return kill.ExitCode;
    }

    private static string[] KillArguments(int pid, string signal) => [$"-{signal}", pid.ToString(CultureInfo.InvariantCulture)];

    /// <summary>Kills the process and everything it started (SIGKILL), as a crash would, and waits for it.</summary>
    public async Task KillAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }
    }

    private void Remember(string? line, StringBuilder stream)
    {
        if (line is null)
        {
            return;
        }

        lock (_tail)
        {
            _tail.Enqueue(line);
            while (_tail.Count > _options.TailLines)
            {
                _tail.Dequeue();
            }

            if (_options.KeepAllOutput)
            {
                stream.Append(line).Append('\n');
            }
        }

        _options.OnLine?.Invoke(line);
    }

    /// <summary>Once: a service stopped for a restart that a Ctrl-C cut short is disposed again with the lab.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        await KillAsync();
        _process.Dispose();
    }
}
