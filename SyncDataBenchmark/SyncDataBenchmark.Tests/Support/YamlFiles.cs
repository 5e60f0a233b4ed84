using YamlDotNet.RepresentationModel;

namespace SyncDataBenchmark.Tests;

/// <summary>The debug stack's YAML files (Prometheus configs, Grafana provisioning), read with YamlDotNet.</summary>
internal static class YamlFiles
{
    public static YamlMappingNode Load(string text)
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(text));
        return (YamlMappingNode)stream.Documents[0].RootNode;
    }

    public static YamlNode? Child(this YamlNode node, string key) =>
        node is YamlMappingNode map && map.Children.TryGetValue(new YamlScalarNode(key), out var child) ? child : null;

    public static string? Scalar(this YamlNode node, string key) => (node.Child(key) as YamlScalarNode)?.Value;

    public static IEnumerable<YamlNode> Items(this YamlNode node, string key) =>
        node.Child(key) is YamlSequenceNode sequence ? sequence.Children : [];

    public static string Save(YamlMappingNode root)
    {
        var writer = new StringWriter();
        new YamlStream(new YamlDocument(root)).Save(writer, assignAnchors: false);
        return writer.ToString();
    }
}
