using SyncData.Shared;

namespace SomeService.Insert;

/// <summary>
/// Linq2DB, the original's third insert approach, keeps its name so requests, the runner's table and the docs stay
/// honest: the linq2db package is not in the registry this lab restores from, so there is nothing to run. This class
/// writes nothing (it is no imitation of linq2db); SomeService answers 501 with the reason it declares.
/// </summary>
[Approach(ApproachKind.Insert, "Linq2DB", Blocked = "linq2db cannot be restored here: the registry copy has no linq2db package at all.")]
public sealed class Linq2DBWriter : IUserWriter;
