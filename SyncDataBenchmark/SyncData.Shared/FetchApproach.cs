namespace SyncData.Shared;

/// <summary>How SomeService pulls rows out of SyncDataSource: a name, as data (the approaches are found by enumeration).</summary>
public readonly record struct FetchApproach(string Name) : IComparable<FetchApproach>
{
    public override string ToString() => Name;

    /// <summary>Ordinal, as the catalogue lists names: sorted lists and reports never depend on culture.</summary>
    public int CompareTo(FetchApproach other) => string.CompareOrdinal(Name, other.Name);
}
