using System.Reflection;

namespace SyncData.Shared;

/// <summary>
/// An approach's name and what it needs, declared once: on a fetch's class in SyncData.Shared/Fetches (<see cref="IFetch"/>,
/// read by both services and the runner) and on each writer in SomeService (whose kind, what it consumes and whether
/// it merges, is its interface's <see cref="WriterKindAttribute"/>). Each side finds the classes by enumeration
/// (<see cref="ApproachCatalog.Declared"/>: SomeService's ApproachRegistry, SyncDataSource's FetchEndpoints, and the
/// runner's ApproachMetadata, which reads the writers from SomeService.dll's metadata without loading it), so adding an
/// approach is adding its class(es): nothing else names it. Only constant arguments, so the runner can decode them from
/// metadata alone; <see cref="ApproachInfo"/> holds what is read back.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class ApproachAttribute(ApproachKind kind, string name) : Attribute
{
    public ApproachKind Kind { get; } = kind;

    public string Name { get; } = name;

    /// <summary>
    /// Fetch: it can hand over PostgreSQL binary COPY bytes (its wire format, relayed unparsed; or, ArrowStream, its
    /// columns encoded as COPY without row objects). A writer never sets it: its interface says what it consumes.
    /// </summary>
    public bool CopyBytes { get; set; }

    /// <summary>Fetch: the page size means something to it (recorded in the run only if so).</summary>
    public bool Pages { get; set; }

    /// <summary>Insert: the batch size means something to it (recorded in the run only if so).</summary>
    public bool Batches { get; set; }

    /// <summary>
    /// Fetch: SyncDataSource's path for it, which both halves read from the one declaration; when omitted,
    /// <see cref="SourceRoutes.Of"/>(name), so a new fetch adds no route constant anywhere.
    /// </summary>
    public string? Route { get; set; }

    /// <summary>
    /// Fetch: it delivers only what changed since the consumer's watermark (the rows inserted or updated, and the keys
    /// deleted), not the whole table, so only a writer that merges (<see cref="WriterKindAttribute.Merges"/>) can apply it.
    /// </summary>
    public bool Changes { get; set; }

    /// <summary>
    /// Insert: the library it writes through, as a refusal names it ("EFBulk (EFCore.BulkExtensions) …": a described
    /// table's reach, DescribedTableReach); a writer with <see cref="ApproachTraits.GeneratedRows"/> must name it.
    /// </summary>
    public string? Library { get; set; }

    /// <summary>Whether it carries a described table, and (a writer) what its library needs of one (<see cref="ApproachTraits"/>).</summary>
    public ApproachTraits Traits { get; set; }

    /// <summary>The attribute as declared: its constructor's arguments, then each property it sets, by name.</summary>
    public static ApproachAttribute From(CustomAttributeData data)
    {
        var declared = new ApproachAttribute((ApproachKind)(int)data.ConstructorArguments[0].Value!, (string)data.ConstructorArguments[1].Value!);
        foreach (var named in data.NamedArguments)
        {
            // An enum argument arrives as its underlying value (from metadata, necessarily: the enum type is the context's).
            var property = typeof(ApproachAttribute).GetProperty(named.MemberName)!;
            property.SetValue(declared, property.PropertyType.IsEnum ? Enum.ToObject(property.PropertyType, named.TypedValue.Value!) : named.TypedValue.Value);
        }

        return declared;
    }
}
