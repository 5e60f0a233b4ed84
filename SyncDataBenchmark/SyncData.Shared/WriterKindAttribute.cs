using System.Reflection;

namespace SyncData.Shared;

/// <summary>
/// What a kind of writer consumes and does, declared once on SomeService's writer interfaces (IRowWriter,
/// ICopyBytesWriter, IMergeWriter, ICopyBytesMergeWriter): a writer's class implements exactly one of them and repeats
/// none of it in its [Approach]. Only constant arguments, so the runner decodes it from metadata alone.
/// </summary>
[AttributeUsage(AttributeTargets.Interface, Inherited = false)]
public sealed class WriterKindAttribute : Attribute
{
    /// <summary>It consumes the source's PostgreSQL binary COPY bytes instead of rows: it runs only with a fetch that delivers them.</summary>
    public bool CopyBytes { get; set; }

    /// <summary>
    /// It brings a populated target up to date (inserts, updates, deletes) instead of emptying it and loading every row;
    /// fed a whole table it deletes the target's rows the source no longer has.
    /// </summary>
    public bool Merges { get; set; }

    /// <summary>The kind of the writer <paramref name="writer"/>: the one interface it implements that declares one.</summary>
    public static WriterKindAttribute Of(Type writer)
    {
        var kinds = writer.GetInterfaces()
            .Select(i => i.GetCustomAttributesData().SingleOrDefault(a => a.AttributeType.FullName == typeof(WriterKindAttribute).FullName))
            .OfType<CustomAttributeData>()
            .ToList();
        // A writer that consumes nothing could only pretend to write; one that consumes two ways would be ambiguous.
        if (kinds.Count != 1)
        {
            throw new InvalidOperationException($"{writer.Name} must implement exactly one writer interface with [WriterKind]; it implements {kinds.Count}.");
        }

        var kind = new WriterKindAttribute();
        foreach (var named in kinds[0].NamedArguments)
        {
            typeof(WriterKindAttribute).GetProperty(named.MemberName)!.SetValue(kind, named.TypedValue.Value);
        }

        return kind;
    }
}
