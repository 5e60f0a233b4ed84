namespace SyncDataBenchmark.Runner;

/// <summary>
/// A link the two services' hosts are joined by (--link): loopback (today's setup: one host, one cluster) or a veth
/// pair between two network namespaces shaped to <see cref="RateBitsPerSecond"/> (SyncData.Harness.Network.TwoHostLab).
/// </summary>
public sealed record NetworkLink(string Name, long? RateBitsPerSecond)
{
    public const string LoopbackName = "loopback";

    public static NetworkLink Loopback { get; } = new(LoopbackName, null);

    public static IReadOnlyList<NetworkLink> Known { get; } =
    [
        Loopback,
        new("10gbit", 10_000_000_000),
        new("1gbit", 1_000_000_000),
        new("100mbit", 100_000_000),
    ];

    public static string Names => string.Join(", ", Known.Select(l => l.Name));

    public bool Shaped => RateBitsPerSecond is not null;

    public static NetworkLink? Find(string name) => Known.FirstOrDefault(l => string.Equals(l.Name, name, StringComparison.OrdinalIgnoreCase));
}
