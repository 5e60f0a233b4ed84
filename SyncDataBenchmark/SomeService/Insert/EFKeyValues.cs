using System.Collections;

namespace SomeService.Insert;

/// <summary>A composite key's values in key order, equal to another holding equal values (a bytea key's bytes compared as bytes).</summary>
internal sealed class EFKeyValues(object[] values) : IEquatable<EFKeyValues>
{
    public object[] Values => values;

    public bool Equals(EFKeyValues? other) => other is not null && StructuralComparisons.StructuralEqualityComparer.Equals(values, other.Values);

    public override bool Equals(object? obj) => Equals(obj as EFKeyValues);

    public override int GetHashCode() => StructuralComparisons.StructuralEqualityComparer.GetHashCode(values);

    public override string ToString() => $"({string.Join(", ", values)})";
}
