using System.Diagnostics;
using System.Globalization;
using SyncData.Harness.Network;

namespace SyncData.Harness;

/// <summary>
/// A killed test host or runner leaves its throwaway clusters (daemons started by pg_ctl) and its service
/// processes running, and its two-host labs' network namespaces (TwoHostLab). Each lab therefore marks what it starts with its owner (pid and start time, so a reused pid
/// is not mistaken for it), and the next lab stops whatever belongs to an owner that is gone. Labs of live
/// processes, e.g. another user's test run, are never touched. scripts/sweep-lab-leftovers.sh does the same for test.sh.
/// </summary>
public static class LabSweeper
{
    /// <summary>The file in a cluster directory, and the variable in a service's environment, naming the owner.</summary>
    public const string OwnerFile = "owner";

    public const string OwnerVariable = "SYNCDATA_LAB_OWNER";

    public const string ClusterPrefix = "syncdata-pg-";

    /// <summary>This process as an owner: "pid starttime" (starttime from /proc/pid/stat, in clock ticks since boot).</summary>
    public static string Me { get; } = $"{Environment.ProcessId} {StartTime(Environment.ProcessId)}";

    /// <summary>Stops clusters, kills service processes and removes network labs whose owner is no longer running. Best effort, never throws.</summary>
    public static void Sweep()
    {
        foreach (var parent in new[] { Path.GetTempPath(), "/dev/shm" }.Where(Directory.Exists))
        {
            foreach (var directory in SafeEnumerate(() => Directory.GetDirectories(parent, ClusterPrefix + "*")))
            {
                TryStopCluster(directory);
            }
        }

        foreach (var pid in SafeEnumerate(() => Directory.GetDirectories("/proc").Select(Path.GetFileName).OfType<string>()))
        {
            if (int.TryParse(pid, NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id != Environment.ProcessId
                && OwnerOf(id) is { } owner && !IsAlive(owner))
            {
                try
                {
                    using var process = Process.GetProcessById(id);
                    process.Kill(entireProcessTree: true);
                }
                catch (Exception ex) when (ex is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
                {
                    // Gone meanwhile, or not ours to kill.
                }
            }
        }

        // Last: a namespace goes once nothing the dead owner started still runs in it.
        SweepNetworkLabs();
    }

    /// <summary>Deletes the namespaces of dead owners (their veth ends go with them) and veth ends a dead owner left in the root namespace.</summary>
    private static void SweepNetworkLabs()
    {
        try
        {
            foreach (var (name, _) in NetworkScripts.LabNamespaces(Ip("netns", "list")).Where(n => !IsAlive(n.Owner)))
            {
                Ip("netns", "del", name);
            }

            foreach (var (name, _) in NetworkScripts.LabDevices(Ip("-j", "link", "show", "type", "veth")).Where(d => !Directory.Exists($"/proc/{d.Pid}")))
            {
                Ip("link", "del", name);
            }
        }
        catch (Exception ex) when (ex is InvalidOperationException or TimeoutException or System.Text.Json.JsonException or System.ComponentModel.Win32Exception)
        {
            // No iproute2, or a lab removed meanwhile: the next sweep tries again.
        }
    }

    private static string Ip(params string[] arguments) => NetworkScripts.IpAsync(arguments, CancellationToken.None).GetAwaiter().GetResult();

    private static void TryStopCluster(string directory)
    {
        try
        {
            var ownerFile = Path.Combine(directory, OwnerFile);
            // A cluster without an owner file is being made right now (the file comes just after the directory): not ours to judge.
            if (!File.Exists(ownerFile) || IsAlive(File.ReadAllText(ownerFile).Trim()))
            {
                return;
            }

            var pidFile = Path.Combine(directory, "data", "postmaster.pid");
            if (File.Exists(pidFile)
                && int.TryParse(File.ReadLines(pidFile).FirstOrDefault(), NumberStyles.None, CultureInfo.InvariantCulture, out var postmaster))
            {
                // SIGQUIT is PostgreSQL's immediate shutdown (pg_ctl -m immediate); the data is thrown away anyway.
                ChildProcess.Signal(postmaster, "QUIT");

                for (var wait = 0; wait < 50 && Directory.Exists($"/proc/{postmaster}"); wait++)
                {
                    Thread.Sleep(100);
                }
            }

            Directory.Delete(directory, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.ComponentModel.Win32Exception)
        {
            // Best effort: the next sweep tries again.
        }
    }

    /// <summary>The owner recorded in a process's environment, if it is a lab service.</summary>
    private static string? OwnerOf(int pid)
    {
        try
        {
            var environment = File.ReadAllText($"/proc/{pid}/environ");
            var prefix = OwnerVariable + "=";
            return environment.Split('\0').FirstOrDefault(v => v.StartsWith(prefix, StringComparison.Ordinal))?[prefix.Length..];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static bool IsAlive(string owner)
    {
        var parts = owner.Split(' ');
        return parts.Length == 2 && int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
            ? StartTime(pid) is { } started && started == parts[1]
            : true; // unreadable: leave it alone
    }

    private static string? StartTime(int pid)
    {
        try
        {
            // Field 22 of /proc/pid/stat; the command name (field 2) may hold spaces, so count after its ')'.
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return fields[19];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    private static IEnumerable<string> SafeEnumerate(Func<IEnumerable<string>> list)
    {
        try
        {
            return list().ToList();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }
}
