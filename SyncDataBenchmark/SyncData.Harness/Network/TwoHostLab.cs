using System.Globalization;
using System.Text.Json;

namespace SyncData.Harness.Network;

/// <summary>
/// Two hosts and one link on this machine: a source-host and a target-host network namespace joined by one veth pair,
/// shaped both ways with tbf at the link's rate (Network/lab-up.sh). The ends have link-local addresses in a /30 and
/// nothing else is addressed or routed. Names carry the owner (pid and start time, as LabSweeper's), so the sweep
/// removes a lab whose owner died. No delay is added: this kernel has no netem.
/// </summary>
public sealed class TwoHostLab : IAsyncDisposable
{
    public const string NamespacePrefix = "syncdata-";
    public const string DevicePrefix = "sd";
    public const int Prefix = 30;

    /// <summary>tbf's queue: how long a packet may wait for tokens before it is dropped.</summary>
    public const string Latency = "50ms";

    private static int _count;

    public long RateBitsPerSecond { get; }
    public string SourceNamespace { get; }
    public string TargetNamespace { get; }
    public string SourceDevice { get; }
    public string TargetDevice { get; }
    public string SourceAddress { get; }
    public string TargetAddress { get; }

    /// <summary>The /30 the two ends share, e.g. 169.254.77.0/30: the only network the source's pg_hba trusts.</summary>
    public string Network { get; }

    private TwoHostLab(long rate, string owner, int number)
    {
        RateBitsPerSecond = rate;
        var (pid, start) = (owner.Split(' ')[0], owner.Split(' ')[1]);
        SourceNamespace = $"{NamespacePrefix}{pid}-{start}-{number}-src";
        TargetNamespace = $"{NamespacePrefix}{pid}-{start}-{number}-tgt";
        // Interface names hold at most 15 characters: the pid alone (the namespace names carry the start time).
        SourceDevice = $"{DevicePrefix}{pid}-{number}s";
        TargetDevice = $"{DevicePrefix}{pid}-{number}t";
        // Each lab's namespaces have their own addresses and routes, so equal addresses in two labs could not clash;
        // a third octet from the pid and the lab's number still keeps two labs' addresses apart in every listing.
        var octet = (int)((long.Parse(pid, CultureInfo.InvariantCulture) * 7 + number) % 254) + 1;
        Network = $"169.254.{octet}.0/{Prefix}";
        SourceAddress = $"169.254.{octet}.1";
        TargetAddress = $"169.254.{octet}.2";
    }

    /// <summary>
    /// tbf's bucket: at least what the rate delivers in one kernel tick (tc-tbf: burst ≥ rate / HZ; HZ taken as 100,
    /// the smallest a kernel is built with, since this kernel does not say its own), and never less than 256 KiB so a
    /// veth's 64 KiB GSO packets pass whole: 10gbit needs 12.5 MB.
    /// </summary>
    public static long BurstBytes(long rateBitsPerSecond) => Math.Max(256 * 1024, rateBitsPerSecond / 8 / 100);

    /// <summary>Builds the lab at <paramref name="rateBitsPerSecond"/>; <paramref name="owner"/> (default: this process) names it.</summary>
    public static async Task<TwoHostLab> CreateAsync(long rateBitsPerSecond, string? owner = null, CancellationToken ct = default)
    {
        var lab = new TwoHostLab(rateBitsPerSecond, owner ?? LabSweeper.Me, Interlocked.Increment(ref _count));
        try
        {
            await NetworkScripts.RunAsync("lab-up.sh",
            [
                lab.SourceNamespace, lab.TargetNamespace, lab.SourceDevice, lab.TargetDevice, lab.SourceAddress, lab.TargetAddress,
                Prefix.ToString(CultureInfo.InvariantCulture), rateBitsPerSecond.ToString(CultureInfo.InvariantCulture) + "bit",
                BurstBytes(rateBitsPerSecond).ToString(CultureInfo.InvariantCulture), Latency,
            ], ct);
            return lab;
        }
        catch
        {
            await lab.DisposeAsync();
            throw;
        }
    }

    /// <summary>The bytes the source host's end has sent (source → target) and received, so far.</summary>
    public async Task<LinkCounters> ReadCountersAsync(CancellationToken ct = default)
    {
        var output = await NetworkScripts.IpAsync(["-n", SourceNamespace, "-s", "-j", "link", "show", SourceDevice], ct);
        using var json = JsonDocument.Parse(output);
        var stats = json.RootElement[0].GetProperty("stats64");
        return new LinkCounters(stats.GetProperty("tx").GetProperty("bytes").GetInt64(), stats.GetProperty("rx").GetProperty("bytes").GetInt64());
    }

    /// <summary>Takes the link down (both ends: nothing passes either way) or brings it back up.</summary>
    public async Task SetLinkAsync(bool up, CancellationToken ct = default)
    {
        var state = up ? "up" : "down";
        await NetworkScripts.IpAsync(["-n", SourceNamespace, "link", "set", SourceDevice, state], ct);
        await NetworkScripts.IpAsync(["-n", TargetNamespace, "link", "set", TargetDevice, state], ct);
    }

    /// <summary>Removes the namespaces (and with them the veth pair). Whatever runs inside must be stopped first.</summary>
    public async ValueTask DisposeAsync() =>
        await NetworkScripts.RunAsync("lab-down.sh", [SourceNamespace, TargetNamespace, SourceDevice], CancellationToken.None);
}
