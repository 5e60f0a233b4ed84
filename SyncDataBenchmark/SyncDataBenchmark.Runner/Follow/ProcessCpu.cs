using System.Globalization;

namespace SyncDataBenchmark.Runner.Follow;

/// <summary>A process's CPU so far (user + system) from /proc/&lt;pid&gt;/stat, in ms; null when it is gone or not this machine's.</summary>
public static class ProcessCpu
{
    /// <summary>/proc counts in USER_HZ, which the kernel's ABI fixes at 100 a second on Linux.</summary>
    private const double MsPerTick = 10;

    /// <summary>
    /// The CPU <paramref name="pid"/> has spent, or null: no such process, or (with <paramref name="command"/>) one whose
    /// command is another (a PostgreSQL on another host whose backend pid happens to be taken here).
    /// </summary>
    public static double? Ms(int pid, string? command = null)
    {
        try
        {
            if (command is not null && File.ReadAllText($"/proc/{pid}/comm").Trim() != command)
            {
                return null;
            }

            var stat = File.ReadAllText($"/proc/{pid}/stat");
            // The command (field 2) is in parentheses and may hold spaces: count from after its closing one; utime and
            // stime are fields 14 and 15, the 12th and 13th after it.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return (long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)) * MsPerTick;
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }
}
