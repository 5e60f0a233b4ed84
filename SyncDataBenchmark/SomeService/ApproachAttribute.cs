using SyncData.Shared;

namespace SomeService;

/// <summary>
/// The name a fetch consumer or a writer answers to. <see cref="ApproachRegistry"/> finds the classes that carry it,
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
