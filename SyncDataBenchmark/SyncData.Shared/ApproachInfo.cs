namespace SyncData.Shared;

/// <summary>
/// One approach's facts, read from its declaration (<see cref="ApproachAttribute"/> on its class; a writer's
/// <see cref="CopyBytes"/> and <see cref="Merges"/> from the <see cref="WriterKindAttribute"/> of the interface it
/// implements), and served as such at SomeService's GET /approaches. <see cref="Route"/> is a fetch's, null for an insert;
/// <see cref="Library"/> and <see cref="Traits"/> are an insert's (what can carry a described table: DescribedTableReach).
/// </summary>
public sealed record ApproachInfo(ApproachKind Kind, string Name, bool CopyBytes, bool Pages, bool Batches, string? Route, bool Changes = false, bool Merges = false,
    string? Library = null, ApproachTraits Traits = ApproachTraits.None)
{
    /// <summary>What <paramref name="type"/> (a fetch's or a writer's class) declares.</summary>
    public static ApproachInfo Of(Type type) =>
        Declared(type) ?? throw new InvalidOperationException($"{type.Name} declares no [Approach(…)].");

    /// <summary>The route of the fetch <paramref name="fetch"/> (its class in SyncData.Shared/Fetches) declares.</summary>
    public static string RouteOf(Type fetch) =>
        Of(fetch).Route ?? throw new InvalidOperationException($"{fetch.Name} declares an insert, which has no route.");

    /// <summary>
    /// What <paramref name="type"/> declares, or null. Read through <see cref="System.Reflection.CustomAttributeData"/>
    /// only, so the same reading serves a loaded type (SomeService) and one in a MetadataLoadContext (the runner).
    /// </summary>
    public static ApproachInfo? Declared(Type type)
    {
        if (type.GetCustomAttributesData().SingleOrDefault(a => a.AttributeType.FullName == typeof(ApproachAttribute).FullName) is not { } data)
        {
            return null;
        }

        var declared = ApproachAttribute.From(data);
        if (declared.Kind == ApproachKind.Fetch)
        {
            // A fetch carries a described table or not, and says which key it needs; what a library needs of the table is a writer's to say.
            return (declared.Traits & ~(ApproachTraits.GeneratedRows | ApproachTraits.Keyed)) != 0
                ? throw new InvalidOperationException($"{type.Name} declares a fetch with a writer's trait ({declared.Traits}): a fetch declares GeneratedRows and Keyed, or nothing.")
                : new(declared.Kind, declared.Name, declared.CopyBytes, declared.Pages, declared.Batches,
                    declared.Route ?? SourceRoutes.Of(declared.Name), declared.Changes, Traits: declared.Traits);
        }

        // A writer's kind is its interface's, said once there: a class that says it again could say it differently.
        var kind = declared.CopyBytes || declared.Changes || declared.Route is not null
            ? throw new InvalidOperationException($"{type.Name} declares an insert with a fetch's fact (CopyBytes, Changes or Route): its interface says what it consumes.")
            : WriterKindAttribute.Of(type);
        // A refusal of a writer that carries a described table names its library.
        return declared.Traits.HasFlag(ApproachTraits.GeneratedRows) && declared.Library is null
            ? throw new InvalidOperationException($"{type.Name} declares {nameof(ApproachTraits.GeneratedRows)} but no Library: a refusal names the library it writes through.")
            : new(declared.Kind, declared.Name, kind.CopyBytes, declared.Pages, declared.Batches, null, Merges: kind.Merges,
                Library: declared.Library, Traits: declared.Traits);
    }
}
