namespace SyncData.Shared;

/// <summary>Reading the declarations back: the fetches (<see cref="IFetch"/>), a fetch's halves, the writers.</summary>
public static class Approach
{
    /// <summary>Every fetch declared in SyncData.Shared: the one list of fetches both services and the runner read.</summary>
    public static IReadOnlyList<ApproachInfo> Fetches { get; } = [.. Find(typeof(IFetch).Assembly, typeof(IFetch), ApproachKind.Fetch).Select(f => f.Info)];

    /// <summary>
    /// Every concrete class in <paramref name="assembly"/> that is one half of a fetch (implements
    /// <paramref name="openHalf"/> of the fetch's class), by the fetch it names: exactly one per declared fetch.
    /// </summary>
    public static Dictionary<FetchApproach, Type> FindHalves(System.Reflection.Assembly assembly, Type openHalf)
    {
        var halves = new Dictionary<FetchApproach, Type>();
        foreach (var type in assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false }))
        {
            if (type.GetInterfaces().SingleOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == openHalf) is not { } half)
            {
                continue;
            }

            var fetch = new FetchApproach(Of(half.GetGenericArguments()[0]).Name);
            if (!halves.TryAdd(fetch, type))
            {
                throw new InvalidOperationException($"{halves[fetch].Name} and {type.Name} are both halves of {fetch} in {assembly.GetName().Name}.");
            }
        }

        return Fetches.FirstOrDefault(f => !halves.ContainsKey(new FetchApproach(f.Name))) is { } alone
            ? throw new InvalidOperationException($"The fetch {alone.Name} has no half in {assembly.GetName().Name}.")
            : halves;
    }

    /// <summary>What <paramref name="type"/> (a fetch's or a writer's class) declares.</summary>
    public static ApproachInfo Of(Type type) =>
        Declared(type) ?? throw new InvalidOperationException($"{type.Name} declares no [Approach(…)].");

    /// <summary>
    /// Every concrete class in <paramref name="assembly"/> that implements <paramref name="contract"/>, with what it
    /// declares: the one scan both services find their approaches by. Each must declare an approach of
    /// <paramref name="kind"/>, and no two the same name (names compare ignoring case, as the query does).
    /// </summary>
    public static List<(Type Type, ApproachInfo Info)> Find(System.Reflection.Assembly assembly, Type contract, ApproachKind kind)
    {
        var found = new List<(Type Type, ApproachInfo Info)>();
        foreach (var type in assembly.GetTypes().Where(t => t is { IsClass: true, IsAbstract: false } && contract.IsAssignableFrom(t)))
        {
            var info = Declared(type) is { } declared && declared.Kind == kind
                ? declared
                : throw new InvalidOperationException($"{type.Name} implements {contract.Name} but declares no [Approach(ApproachKind.{kind}, …)].");
            if (found.FirstOrDefault(f => string.Equals(f.Info.Name, info.Name, StringComparison.OrdinalIgnoreCase)) is { Type: { } other })
            {
                throw new InvalidOperationException($"{other.Name} and {type.Name} both declare the name {info.Name}.");
            }

            found.Add((type, info));
        }

        return found;
    }

    private static ApproachInfo? Declared(Type type) =>
        (type.GetCustomAttributes(typeof(ApproachAttribute), inherit: false).SingleOrDefault() as ApproachAttribute)?.ToInfo();
}
