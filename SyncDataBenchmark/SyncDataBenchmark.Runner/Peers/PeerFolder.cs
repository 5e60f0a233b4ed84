using SyncData.Postgres;
using SyncData.Shared;

namespace SyncDataBenchmark.Runner;

/// <summary>
/// A peer's scripts, kept as files in Peers/&lt;Folder&gt;/ and embedded in the runner: run.sh (timed), setup.sh and
/// teardown.sh (untimed, optional), precondition.sql (run on the source before the session, optional); every other file is written into $WORK before the run. The peer's own
/// values (such as {{format}}) are filled in here, {{table}} and {{columns}} per run (<see cref="PeerDefinition.For"/>), so a
/// table's name and column order are stated once, in <see cref="SyncTable"/>; psql's \copy interpolates no variables, so they cannot be psql variables.
/// </summary>
public static class PeerFolder
{
    public const string Run = "run.sh";
    public const string Setup = "setup.sh";
    public const string Teardown = "teardown.sh";
    public const string Precondition = "precondition.sql";

    private const string Prefix = "Peers/";

    public static PeerDefinition Load(string folder, string key, string name, string fetchLabel, string insertLabel, string tool, string scope,
        IReadOnlyDictionary<string, string>? values = null)
    {
        var files = Files(folder, values ?? new Dictionary<string, string>());
        return new PeerDefinition(key, name, fetchLabel, insertLabel, tool, files[Run], scope)
        {
            Setup = files.GetValueOrDefault(Setup),
            Teardown = files.GetValueOrDefault(Teardown),
            Precondition = files.GetValueOrDefault(Precondition),
            Files = files.Where(f => f.Key is not (Run or Setup or Teardown or Precondition)).ToDictionary(),
        };
    }

    /// <summary>Every file of the folder by name, placeholders filled in; an unknown placeholder is an error, not a silent gap.</summary>
    public static Dictionary<string, string> Files(string folder, IReadOnlyDictionary<string, string> values)
    {
        var assembly = typeof(PeerFolder).Assembly;
        var result = new Dictionary<string, string>();
        foreach (var resource in assembly.GetManifestResourceNames().Where(n => n.StartsWith($"{Prefix}{folder}/", StringComparison.Ordinal)))
        {
            // Twice: a shared text filled in may hold a peer's own placeholder in turn ({{subscription}} in the subscription's SQL).
            var text = EmbeddedText.Read(assembly, resource);
            for (var pass = 0; pass < 2; pass++)
            {
                text = values.Aggregate(text, (t, v) => t.Replace("{{" + v.Key + "}}", v.Value, StringComparison.Ordinal));
            }

            var filled = ForTable(text, SyncTable.Default); // any table: only to find a placeholder nothing fills
            if (filled.IndexOf("{{", StringComparison.Ordinal) is >= 0 and var at && filled.IndexOf("}}", at, StringComparison.Ordinal) > at)
            {
                throw new InvalidOperationException($"{resource} has a placeholder no value fills: {filled[at..(filled.IndexOf("}}", at, StringComparison.Ordinal) + 2)]}");
            }

            result[resource[(Prefix.Length + folder.Length + 1)..]] = text;
        }

        return result.ContainsKey(Run) ? result : throw new InvalidOperationException($"Peers/{folder}/ has no {Run}.");
    }

    /// <summary>
    /// The peers' common SQL (Peers/Shared/), as placeholder values: {{merge}} (the MERGE, its column lists read from the
    /// catalog), {{watermark}} (the new watermark stored), {{watermark_check}} (none: stop), {{foreign_server}} (postgres_fdw's server).
    /// </summary>
    public static IReadOnlyDictionary<string, string> SharedValues { get; } = new Dictionary<string, string>
    {
        ["merge"] = Shared("merge.sql"),
        ["watermark"] = Shared("watermark.sql"),
        ["watermark_check"] = Shared("watermark-check.sql"),
        ["foreign_server"] = Shared("foreign-server.sql"),
    };

    /// <summary>
    /// A subscription's SQL as placeholder values, its publication, slot and subscription named <paramref name="name"/>:
    /// {{subscription_source_setup}}, {{subscription_source_drop}}, {{subscription_target_drop}} (Peers/Shared/, which
    /// --follow's native subscription runs too) and {{subscription}}.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Subscription(string name) => new Dictionary<string, string>
    {
        ["subscription_source_setup"] = Shared("subscription-source-setup.sql"),
        ["subscription_source_drop"] = Shared("subscription-source-drop.sql"),
        ["subscription_target_drop"] = Shared("subscription-target-drop.sql"),
        ["subscription"] = name,
    };

    /// <summary>One of the peers' common files (Peers/Shared/), its placeholders unfilled.</summary>
    public static string Shared(string name) => EmbeddedText.Read(typeof(PeerFolder).Assembly, $"{Prefix}Shared/{name}");

    /// <summary>
    /// A peer's text for <paramref name="table"/>: {{table}} its name as SQL spells it (a user's table quoted,
    /// schema.name), {{qualified}} always with its schema (pgcopydb's filters), {{columns}} its COPY column order.
    /// </summary>
    public static string ForTable(string text, SyncTable table) =>
        text.Replace("{{table}}", table.SqlName, StringComparison.Ordinal)
            .Replace("{{qualified}}", table.Description?.QualifiedName ?? $"public.{table.Name}", StringComparison.Ordinal)
            .Replace("{{columns}}", table.Columns, StringComparison.Ordinal);
}
