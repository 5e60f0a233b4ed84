using System.ComponentModel;
using SyncData.Harness;

namespace SyncDataBenchmark.Runner;

/// <summary>Runs a bash script (a real shell pipeline, not bytes pumped through .NET) and times it.</summary>
public static class ShellCommand
{
    public sealed record Outcome(int ExitCode, TimeSpan Elapsed, string Output);

    /// <summary>Cancelling kills the script with everything it started.</summary>
    public static Task<Outcome> RunAsync(string script, IReadOnlyDictionary<string, string> environment, string workingDirectory, CancellationToken ct) =>
        RunAsync(script, environment, workingDirectory, null, ct);

    /// <summary>The script inside the network namespace <paramref name="inNamespace"/> (null: here).</summary>
    public static async Task<Outcome> RunAsync(string script, IReadOnlyDictionary<string, string> environment, string workingDirectory, string? inNamespace, CancellationToken ct)
    {
        var options = new ChildProcessOptions
        {
            Namespace = inNamespace,
            WorkingDirectory = workingDirectory,
            Environment = environment.ToDictionary(e => e.Key, string? (e) => e.Value),
            // Enough of the end for a failure message.
            TailLines = 40,
        };
        // pipefail: a failing first stage must fail the peer, not be hidden by the last stage's success.
        var result = await ChildProcess.RunAsync("bash", ["-o", "pipefail", "-c", script], options, ct: ct);
        return new Outcome(result.ExitCode, result.Elapsed, result.RecentOutput);
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
            var result = await ChildProcess.RunAsync(file, arguments, new ChildProcessOptions { KeepAllOutput = true }, TimeSpan.FromSeconds(30));
            var text = result.StandardOutput.Trim();
            if (text.Length == 0)
            {
                text = result.StandardError.Trim();
            }

            return result.ExitCode == 0 ? text.Split('\n')[0].Trim() : null;
        }
        catch (Exception ex) when (ex is Win32Exception or TimeoutException or InvalidOperationException)
        {
            return null;
        }
    }
}
