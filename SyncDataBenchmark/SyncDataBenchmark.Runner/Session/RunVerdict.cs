using SyncData.Harness;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>Whether a combination's run counts: SomeService's verdict, the runner's own read of the target, and the profile the services ran.</summary>
public static class RunVerdict
{
    /// <summary>
    /// Null when SomeService's verdict and the runner's both hold (and, with <paramref name="profile"/>, both services
    /// ran under it); else why not.
    /// </summary>
    public static string? Of(RunResult result, TableChecksum source, TableChecksum target, RuntimeProfile? profile) =>
        (profile is null ? null : ProfileMismatch(profile, result)) ?? result switch
        {
            { Status: RunStatus.Succeeded, Verified: true } when target == source => null,
            { Status: RunStatus.Succeeded, Verified: true } =>
                $"SomeService reported success, but the runner finds the target different from the source: source {source.Rows:N0} rows " +
                $"(checksum {source.Checksum}), target {target.Rows:N0} (checksum {target.Checksum}).",
            { Status: RunStatus.Succeeded } => "The run succeeded but was not verified.",
            _ => $"{result.Status}: {result.Error}",
        };

    /// <summary>A run whose services report settings other than its profile's does not count for that profile.</summary>
    private static string? ProfileMismatch(RuntimeProfile profile, RunResult result)
    {
        var wrong = new[] { ("SomeService", result.SomeService?.Runtime), ("SyncDataSource", result.SyncDataSource?.Runtime) }
            .Where(x => x.Item2 is not null && profile.Check(x.Item2) is not null)
            .Select(x => $"{x.Item1} ran {RuntimeProfiles.Describe(x.Item2!)} ({profile.Check(x.Item2!)})")
            .ToList();
        return wrong.Count == 0 ? null : $"Not profile {profile.Name}: {string.Join("; ", wrong)}";
    }
}
