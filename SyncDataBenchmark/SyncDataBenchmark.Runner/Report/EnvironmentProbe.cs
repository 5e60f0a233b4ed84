using System.Runtime.InteropServices;
using System.Xml.Linq;
using SyncData.Harness;

namespace SyncDataBenchmark.Runner.Report;

/// <summary>What the numbers were measured on: hardware, OS, runtimes, package and tool versions, the commit.</summary>
public static class EnvironmentProbe
{
    public static async Task<BenchEnvironment> ReadAsync(string postgresVersion, IReadOnlyDictionary<string, string> tools, DateTimeOffset startedAt)
    {
        var (commit, dirty) = await GitAsync();
        return new BenchEnvironment
        {
            CpuModel = FileField("/proc/cpuinfo", "model name", ':') ?? RuntimeInformation.ProcessArchitecture.ToString(),
            Cores = Environment.ProcessorCount,
            MemoryBytes = FileField("/proc/meminfo", "MemTotal", ':') is { } mem && long.TryParse(mem.Split(' ')[0], out var kb)
                ? kb * 1024
                : GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
            Os = FileField("/etc/os-release", "PRETTY_NAME=", '=') ?? RuntimeInformation.OSDescription,
            Kernel = File.Exists("/proc/sys/kernel/osrelease") ? File.ReadAllText("/proc/sys/kernel/osrelease").Trim() : RuntimeInformation.OSDescription,
            DotnetRuntime = $"{RuntimeInformation.FrameworkDescription} ({RuntimeInformation.RuntimeIdentifier})",
            PostgresVersion = postgresVersion,
            NuGetPackages = PackageVersions(),
            Tools = tools,
            GitCommit = commit,
            GitDirty = dirty,
            StartedAt = startedAt,
        };
    }

    /// <summary>
    /// Every PackageVersion of the central Directory.Packages.props, and every PackageDownload of the solution's .props
    /// files (EFBulk.props), whose exact versions are properties in Directory.Packages.props.
    /// </summary>
    public static IReadOnlyDictionary<string, string> PackageVersions()
    {
        var folder = Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark");
        var central = XDocument.Load(Path.Combine(folder, "Directory.Packages.props"));
        var versions = central.Descendants("PackageVersion")
            .Where(e => e.Attribute("Include") is not null && e.Attribute("Version") is not null)
            .ToDictionary(e => e.Attribute("Include")!.Value, e => e.Attribute("Version")!.Value);
        var properties = central.Descendants("PropertyGroup").Elements().ToDictionary(e => e.Name.LocalName, e => e.Value.Trim());
        foreach (var download in Directory.EnumerateFiles(folder, "*.props").SelectMany(f => XDocument.Load(f).Descendants("PackageDownload")))
        {
            // Version="[$(Name)]": an exact version, written as a property.
            var version = download.Attribute("Version")?.Value.Trim('[', ']') ?? "";
            if (version.StartsWith("$(", StringComparison.Ordinal) && version.EndsWith(')'))
            {
                version = properties.GetValueOrDefault(version[2..^1], version);
            }

            if (download.Attribute("Include")?.Value is { } package)
            {
                versions[package] = version;
            }
        }

        return versions;
    }

    /// <summary>The value after the separator on the first line of <paramref name="file"/> that starts with <paramref name="name"/>.</summary>
    private static string? FileField(string file, string name, char separator) =>
        File.Exists(file) && File.ReadLines(file).FirstOrDefault(l => l.StartsWith(name, StringComparison.Ordinal)) is { } line
            ? line[(line.IndexOf(separator) + 1)..].Trim().Trim('"')
            : null;

    private static async Task<(string? Commit, bool? Dirty)> GitAsync()
    {
        var root = Lab.RepositoryRoot;
        var commit = await ShellCommand.FirstLineAsync("git", "-C", root, "rev-parse", "HEAD");
        if (commit is null)
        {
            return (null, null);
        }

        var status = await ShellCommand.RunAsync("git status --porcelain --untracked-files=no", new Dictionary<string, string>(), root, CancellationToken.None);
        return (commit, status.ExitCode == 0 ? status.Output.Trim().Length > 0 : null);
    }
}
