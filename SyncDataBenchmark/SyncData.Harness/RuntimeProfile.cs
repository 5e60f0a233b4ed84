using SyncData.Shared;

namespace SyncData.Harness;

/// <summary>
/// A runtime configuration the services are started with, applied through environment variables (the services'
/// build carries none: README, "Measuring honestly"), and what each service must then report it runs with.
/// </summary>
public sealed record RuntimeProfile(string Name, string Description, IReadOnlyDictionary<string, string> Environment)
{
    /// <summary>Why a service's reported settings are not this profile's, or null when they are.</summary>
    public Func<RuntimeSettings, string?> Check { get; init; } = _ => null;
}
