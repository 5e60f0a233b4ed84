namespace SyncData.Shared;

/// <summary>How SomeService writes the pulled rows into its own database: a name, as data.</summary>
public readonly record struct InsertApproach(string Name) : IComparable<InsertApproach>
{
    public override string ToString() => Name;

    /// <summary>Ordinal, as the catalogue lists names: sorted lists and reports never depend on culture.</summary>
    public int CompareTo(InsertApproach other) => string.CompareOrdinal(Name, other.Name);
}
