namespace SyncData.Harness;

/// <summary>
/// Where a cluster runs when it is one host of a two-host lab: inside <paramref name="Namespace"/>, listening also on
/// <paramref name="LinkAddress"/> (null: loopback only) and trusting <paramref name="TrustedNetwork"/> there.
/// </summary>
public sealed record PostgresHost(string Namespace, string? LinkAddress = null, string? TrustedNetwork = null);
