using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Tests that run with nothing beside them, after the parallel collections (TestSetup.cs).</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class AloneCollection
{
    public const string Name = "alone";
}
