using System.Collections.Concurrent;
using System.Diagnostics;

namespace SyncDataBenchmark.Runner;

/// <summary>Runs a bash script (a real shell pipeline, not bytes pumped through .NET) and times it.</summary>
public static class ShellCommand
{
    public sealed record Outcome(int ExitCode, TimeSpan Elapsed, string Output);

    public static async Task<Outcome> RunAsync(string script, IReadOnlyDictionary<string, string> environment, string workingDirectory, CancellationToken ct)
    {
        var start = new ProcessStartInfo("bash")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory,
        };
        // pipefail: a failing first stage must fail the peer, not be hidden by the last stage's success.
        foreach (var a in new[] { "-o", "pipefail", "-c", script })
        {
            start.ArgumentList.Add(a);
        }

        foreach (var (key, value) in environment)
        {
            start.Environment[key] = value;
        }

        var lines = new ConcurrentQueue<string>();
        void Keep(string? line)
        {
            if (line is null)
            {
                return;
            }

            lines.Enqueue(line);
            while (lines.Count > 40 && lines.TryDequeue(out _))
            {
            }
        }

        var clock = Stopwatch.StartNew();
        using var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start bash.");
        process.OutputDataReceived += (_, e) => Keep(e.Data);
        process.ErrorDataReceived += (_, e) => Keep(e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            await process.WaitForExitAsync(ct);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        var elapsed = clock.Elapsed;
        // WaitForExitAsync returns once the output streams are drained too, so the queue is complete here.
        return new Outcome(process.ExitCode, elapsed, string.Join('\n', lines));
    }

    /// <summary>Full path of an executable on PATH, or null.</summary>
    public static string? Which(string name) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "")
        .Split(':', StringSplitOptions.RemoveEmptyEntries)
        .Select(dir => Path.Combine(dir, name))
        .FirstOrDefault(File.Exists);

    /// <summary>First line a command prints (stdout, else stderr), or null if it fails or cannot be run.</summary>
    public static async Task<string?> FirstLineAsync(string file, params string[] arguments)
    {
        try
        {
            var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (var a in arguments)
            {
                start.ArgumentList.Add(a);
            }

            using var process = Process.Start(start);
            if (process is null)
            {
                return null;
            }

            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
            await process.WaitForExitAsync(timeout.Token);
            var text = (await stdout).Trim();
            if (text.Length == 0)
            {
                text = (await stderr).Trim();
            }

            return process.ExitCode == 0 ? text.Split('\n')[0].Trim() : null;
        }
        catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or OperationCanceledException or InvalidOperationException)
        {
            return null;
        }
    }
}
