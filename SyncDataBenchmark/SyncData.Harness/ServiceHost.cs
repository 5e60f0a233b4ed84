namespace SyncData.Harness;

/// <summary>
/// Where a service runs in a two-host lab: inside <paramref name="Namespace"/>, listening on
/// <paramref name="ListenAddress"/> (its link address, for the other host) and on the unix socket
/// <paramref name="ControlSocket"/> (for the runner in the root namespace).
/// </summary>
public sealed record ServiceHost(string Namespace, string ListenAddress, string ControlSocket);
