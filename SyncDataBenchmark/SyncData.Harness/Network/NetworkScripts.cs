using System.Text.RegularExpressions;
using SyncData.Shared;

namespace SyncData.Harness.Network;

/// <summary>The Network/*.sh scripts (embedded) and iproute2's ip, run as child processes; a failure names the command and its output.</summary>
internal static partial class NetworkScripts
{
    public static async Task RunAsync(string script, IReadOnlyList<string> arguments, CancellationToken ct)
    {
        // bash -c TEXT NAME ARGS…: the script sees its arguments as $1…, with its own name as $0.
        var result = await ChildProcess.RunAsync("bash", ["-c", Read(script), script, .. arguments],
            new ChildProcessOptions { KeepAllOutput = true }, TimeSpan.FromMinutes(1), ct);
        if (result.ExitCode != 0)
        {
            throw new InvalidOperationException($"Network/{script} {string.Join(' ', arguments)} exited with {result.ExitCode}: {result.StandardError}{result.StandardOutput}");
        }
    }

    public static async Task<string> IpAsync(IReadOnlyList<string> arguments, CancellationToken ct)
    {
        var result = await ChildProcess.RunAsync("ip", arguments, new ChildProcessOptions { KeepAllOutput = true }, TimeSpan.FromSeconds(30), ct);
        return result.ExitCode == 0
            ? result.StandardOutput
            : throw new InvalidOperationException($"ip {string.Join(' ', arguments)} exited with {result.ExitCode}: {result.StandardError}");
    }

    /// <summary>The lab namespaces present now, as (name, owner "pid starttime").</summary>
    public static IEnumerable<(string Name, string Owner)> LabNamespaces(string ipNetnsList) =>
        ipNetnsList.Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(l => NamespaceName().Match(l.Split(' ')[0]))
            .Where(m => m.Success)
            .Select(m => (m.Value, $"{m.Groups[1].Value} {m.Groups[2].Value}"));

    /// <summary>Lab veth ends left in the root namespace (a set-up stopped half-way), as (name, owner pid).</summary>
    public static IEnumerable<(string Name, int Pid)> LabDevices(string ipLinkJson)
    {
        using var json = System.Text.Json.JsonDocument.Parse(ipLinkJson.Length == 0 ? "[]" : ipLinkJson);
        return json.RootElement.EnumerateArray()
            .Select(l => DeviceName().Match(l.GetProperty("ifname").GetString() ?? ""))
            .Where(m => m.Success)
            .Select(m => (m.Value, int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)))
            .ToList();
    }

    private static string Read(string name) => EmbeddedText.Read(typeof(NetworkScripts).Assembly, "Network/" + name);

    [GeneratedRegex(@"^syncdata-(\d+)-(\d+)-\d+-(src|tgt)$")]
    private static partial Regex NamespaceName();

    [GeneratedRegex(@"^sd(\d+)-\d+[st]$")]
    private static partial Regex DeviceName();
}
