namespace SyncData.Shared;

/// <summary>
/// The name a fetch consumer or a writer answers to. Each service finds the classes that carry it (SomeService: ApproachRegistry; SyncDataSource: FetchEndpoints),
/// so adding an approach is adding its class.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
public sealed class ApproachAttribute : Attribute
{
    public ApproachAttribute(FetchApproach fetch) => Fetch = fetch;

    public ApproachAttribute(InsertApproach insert) => Insert = insert;

    public FetchApproach? Fetch { get; }

    public InsertApproach? Insert { get; }
}
