using YamlDotNet.Serialization;
using YamlDotNet.Serialization.NamingConventions;

namespace SyncDataBenchmark.Tests;

/// <summary>The parts of `docker-compose config` output (normalised YAML) the tests look at, read with YamlDotNet.</summary>
internal sealed class ComposeConfig
{
    public sealed class Build
    {
        public string? Context { get; set; }
        public string? Dockerfile { get; set; }
        public Dictionary<string, string> Args { get; set; } = [];
    }

    public sealed class Service
    {
        public string? Image { get; set; }
        public Build? Build { get; set; }
        public List<string> Command { get; set; } = [];
        public List<string> Ports { get; set; } = [];
        public List<string> Volumes { get; set; } = [];
        public Dictionary<string, string> Environment { get; set; } = [];

        /// <summary>Normalised to a mapping (service → condition) by `docker-compose config`; only the names matter here.</summary>
        [YamlMember(Alias = "depends_on")]
        public Dictionary<string, object?> DependsOnMap { get; set; } = [];

        [YamlIgnore]
        public string? BuildContext => Build?.Context;

        [YamlIgnore]
        public string? Dockerfile => Build?.Dockerfile;

        [YamlIgnore]
        public IReadOnlyDictionary<string, string> BuildArgs => Build?.Args ?? [];

        [YamlIgnore]
        public IReadOnlyList<string> DependsOn => [.. DependsOnMap.Keys];
    }

    public Dictionary<string, Service> Services { get; set; } = [];

    public static ComposeConfig Parse(string yaml) =>
        new DeserializerBuilder()
            .WithNamingConvention(UnderscoredNamingConvention.Instance)
            .IgnoreUnmatchedProperties()
            .Build()
            .Deserialize<ComposeConfig>(yaml);
}
