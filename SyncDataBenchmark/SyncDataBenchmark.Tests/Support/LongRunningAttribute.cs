namespace SyncDataBenchmark.Tests;

/// <summary>
/// Marks a collection (its definition, or a class that is its own collection) whose tests take minutes in one lab: it
/// starts before every unmarked one (<see cref="HeaviestTierFirst"/>), so that it does not begin late and run on alone
/// while the other slot has nothing left.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class LongRunningAttribute : Attribute;
