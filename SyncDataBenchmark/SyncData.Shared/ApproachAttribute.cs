namespace SyncData.Shared;

/// <summary>
/// An approach's name and what it needs, declared once: on a fetch's class in SyncData.Shared/Fetches (<see cref="IFetch"/>,
/// read by both services and the runner) and on each writer in SomeService. Each side finds the classes by enumeration
/// (SomeService: ApproachRegistry; SyncDataSource: FetchEndpoints; the runner: ApproachMetadata, which reads the writers
/// from SomeService.dll's metadata without loading it), so adding an approach is adding its class(es): nothing else names
/// it. Only constant arguments, so the runner can decode them from metadata alone.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class ApproachAttribute(ApproachKind kind, string name) : Attribute
{
    public ApproachKind Kind { get; } = kind;

    public string Name { get; } = name;

    /// <summary>
    /// Fetch: it can hand over PostgreSQL binary COPY bytes (its wire format, relayed unparsed; or, ArrowStream, its
    /// columns encoded as COPY without row objects). Insert: it consumes those bytes instead of rows, so it runs only
    /// with a fetch that delivers them.
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
    /// deleted), not the whole table, so only a writer that <see cref="Merges"/> can apply it.
    /// </summary>
    public bool Changes { get; set; }

    /// <summary>
    /// Insert: it brings a populated target up to date (inserts, updates, deletes) instead of emptying it and loading
    /// every row; fed a whole table it deletes the target's rows the source no longer has.
    /// </summary>
    public bool Merges { get; set; }

    public ApproachInfo ToInfo() => new(Kind, Name, CopyBytes, Pages, Batches, Route ?? SourceRoutes.Of(Name), Changes, Merges);
}
