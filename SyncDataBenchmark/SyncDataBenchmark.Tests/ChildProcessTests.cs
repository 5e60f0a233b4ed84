using System.Globalization;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>The one helper every lab process goes through: its output, its environment and its clean-up.</summary>
[Trait("Tier", "Lab")]
public sealed class ChildProcessTests
{
    [Fact]
    public async Task Both_streams_are_kept_whole_and_every_line_is_passed_on()
    {
        var seen = new List<string>();
        var result = await ChildProcess.RunAsync("bash", ["-c", "echo out; echo err >&2; seq 3 10; exit 3"],
            new ChildProcessOptions { KeepAllOutput = true, OnLine = line => { lock (seen) { seen.Add(line); } } });

        Assert.Equal(3, result.ExitCode);
        Assert.Equal("out\n3\n4\n5\n6\n7\n8\n9\n10\n", result.StandardOutput);
        Assert.Equal("err\n", result.StandardError);
        Assert.Equal(10, seen.Count);
        Assert.Contains("err", seen);
        Assert.True(result.Elapsed > TimeSpan.Zero);
    }

    [Fact]
    public async Task The_tail_keeps_the_last_lines_of_both_streams_and_nothing_else_unless_asked()
    {
        // The two streams are read apart, so the script writes to stderr only once stdout's last line has been seen.
        var go = Path.Combine(Path.GetTempPath(), "syncdata-child-go-" + Path.GetRandomFileName());
        try
        {
            var result = await ChildProcess.RunAsync("bash", ["-c", "seq 1 10; while [ ! -e \"$1\" ]; do sleep 0.05; done; echo err >&2", "bash", go],
                new ChildProcessOptions { TailLines = 3, OnLine = line => { if (line == "10") { File.WriteAllText(go, ""); } } },
                TimeSpan.FromSeconds(30));

            Assert.Equal("9\n10\nerr", result.RecentOutput);
            Assert.Equal("", result.StandardOutput);
            Assert.Equal("", result.StandardError);
        }
        finally
        {
            File.Delete(go);
        }
    }

    [Fact]
    public async Task The_environment_is_set_or_removed_and_the_working_directory_used()
    {
        var directory = Directory.CreateTempSubdirectory("syncdata-child-");
        try
        {
            Environment.SetEnvironmentVariable("SYNCDATA_CHILD_INHERITED", "inherited");
            var result = await ChildProcess.RunAsync("bash", ["-c", "echo \"${SYNCDATA_CHILD_INHERITED-unset} $SYNCDATA_CHILD_SET $PWD\""], new ChildProcessOptions
            {
                WorkingDirectory = directory.FullName,
                Environment = new Dictionary<string, string?> { ["SYNCDATA_CHILD_INHERITED"] = null, ["SYNCDATA_CHILD_SET"] = "set" },
                KeepAllOutput = true,
            });

            Assert.Equal($"unset set {directory.FullName}\n", result.StandardOutput);
        }
        finally
        {
            Environment.SetEnvironmentVariable("SYNCDATA_CHILD_INHERITED", null);
            directory.Delete();
        }
    }

    [Fact]
    public async Task Cancelling_kills_the_whole_tree()
    {
        using var cancel = new CancellationTokenSource();
        var grandchild = new TaskCompletionSource<int>();
        // The grandchild's output goes elsewhere, so only the tree kill, not a closed pipe, can end it.
        var run = ChildProcess.RunAsync("bash", ["-c", "sleep 300 >/dev/null 2>&1 & echo $!; wait"],
            new ChildProcessOptions { OnLine = line => grandchild.TrySetResult(int.Parse(line, CultureInfo.InvariantCulture)) }, ct: cancel.Token);
        var pid = await grandchild.Task.WaitAsync(TimeSpan.FromSeconds(30));

        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run);
        Assert.True(await GoneAsync(pid), $"the grandchild {pid} (sleep 300) outlived the cancelled run");
    }

    [Fact]
    public async Task A_timeout_kills_the_tree_and_says_what_did_not_finish()
    {
        var started = new TaskCompletionSource<int>();
        var error = await Assert.ThrowsAsync<TimeoutException>(() => ChildProcess.RunAsync("bash", ["-c", "sleep 300 >/dev/null 2>&1 & echo $!; wait"],
            new ChildProcessOptions { OnLine = line => started.TrySetResult(int.Parse(line, CultureInfo.InvariantCulture)) }, TimeSpan.FromSeconds(2)));

        Assert.StartsWith("bash -c sleep 300", error.Message);
        Assert.Contains("did not finish within 2 s", error.Message);
        Assert.True(await GoneAsync(await started.Task.WaitAsync(TimeSpan.FromSeconds(10))), "the grandchild outlived the timed-out run");
    }

    [Fact]
    public async Task Disposing_a_started_process_kills_it_and_a_signal_reaches_it()
    {
        int pid;
        await using (var child = ChildProcess.Start("sleep", ["300"]))
        {
            pid = child.Id;
            Assert.Equal(0, await child.SignalAsync("STOP"));
            Assert.Equal(0, await child.SignalAsync("CONT"));
            Assert.False(child.HasExited);
        }

        Assert.True(await GoneAsync(pid));
        Assert.NotEqual(0, ChildProcess.Signal(pid, "0"));
    }

    /// <summary>Gone, or a zombie waiting for init: either way no longer running. Polls for up to 10 s.</summary>
    private static async Task<bool> GoneAsync(int pid)
    {
        for (var i = 0; i < 100; i++)
        {
            try
            {
                var stat = await File.ReadAllTextAsync($"/proc/{pid}/stat");
                if (stat[(stat.LastIndexOf(')') + 2)..].StartsWith('Z'))
                {
                    return true;
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return true;
            }

            await Task.Delay(100);
        }

        return false;
    }
}
