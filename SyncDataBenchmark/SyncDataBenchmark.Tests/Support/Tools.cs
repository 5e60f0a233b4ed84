using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>The command-line tools the observability tests run (promtool, docker-compose, git), found on PATH.</summary>
internal static class Tools
{
    public static string Require(string name, string aptPackage)
    {
        foreach (var directory in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries))
        {
            var path = Path.Combine(directory, name);
            if (File.Exists(path))
            {
                return path;
            }
        }

        Assert.Fail($"'{name}' is not installed: apt-get install -y {aptPackage}");
        return name;
    }

    public static async Task<(int Exit, string Stdout, string Stderr)> RunAsync(
        string tool, IEnumerable<string> arguments, string workingDirectory, string aptPackage, IReadOnlyDictionary<string, string>? environment = null)
    {
        var argumentList = arguments.ToList();
        var options = new ChildProcessOptions
        {
            WorkingDirectory = workingDirectory,
            Environment = environment?.ToDictionary(e => e.Key, string? (e) => e.Value),
            KeepAllOutput = true,
        };
        try
        {
            var result = await ChildProcess.RunAsync(Path.IsPathRooted(tool) ? tool : Require(tool, aptPackage), argumentList, options, TimeSpan.FromSeconds(60));
            return (result.ExitCode, result.StandardOutput, result.StandardError);
        }
        catch (TimeoutException)
        {
            Assert.Fail($"{tool} {string.Join(' ', argumentList)} did not finish in 60 s.");
            throw;
        }
    }

    /// <summary>promtool check metrics reads the exposition on stdin: exit 0 and no output when it has nothing to say.</summary>
    public static async Task<(int Exit, string Stdout, string Stderr)> CheckMetricsAsync(string exposition)
    {
        var file = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(file, exposition);
            return await RunAsync("sh", ["-c", "promtool check metrics < \"$1\"", "sh", file], Path.GetTempPath(), "prometheus");
        }
        finally
        {
            File.Delete(file);
        }
    }
}
