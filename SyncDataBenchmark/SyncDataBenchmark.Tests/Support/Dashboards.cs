using System.Text.Json;
using System.Text.RegularExpressions;
using Xunit;

namespace SyncDataBenchmark.Tests;

internal enum QueryKind { Panel, Annotation, Variable }

internal sealed record DashboardQuery(QueryKind Kind, string Where, string Expr, string? Legend, string? DatasourceUid, bool Instant = false);

internal sealed record DashboardPanel(int Id, string Type, string Title, string? DatasourceUid, IReadOnlyList<string> Targets);

internal sealed record Dashboard(string File, string Uid, string Title, IReadOnlyList<DashboardPanel> Panels, IReadOnlyList<DashboardQuery> Queries);

internal static class Dashboards
{
    /// <summary>Values Grafana would put in for the dashboards' variables (one service; all instances).</summary>
    private static readonly Dictionary<string, string> Variables = new()
    {
        ["job"] = "SomeService",
        ["instance"] = ".*",
        ["route"] = "/sync",
        ["method"] = "GET",
        ["__rate_interval"] = "4s",
        ["__interval"] = "1s",
        ["__range"] = "15m",
    };

    /// <param name="values">Values that replace the defaults (a service for $job, the time range for $__range).</param>
    public static string Substitute(string expr, IReadOnlyDictionary<string, string>? values = null)
    {
        // A variable name starts with a letter or "_": label_replace's "$1" is PromQL's own, left as it is (as Grafana does).
        var result = Regex.Replace(expr, @"\$\{(?<name>\w+)(?::\w+)?\}|\$(?<name>[A-Za-z_]\w*)", m =>
            (values?.TryGetValue(m.Groups["name"].Value, out var given) == true ? given : null) is { } value
            || Variables.TryGetValue(m.Groups["name"].Value, out value)
                ? value
                : throw new InvalidOperationException($"Unknown dashboard variable {m.Value} in {expr}"));
        Assert.DoesNotMatch(@"\$(?!\d)", result);
        return result;
    }

    public static List<Dashboard> Load(string directory)
    {
        var files = Directory.GetFiles(directory, "*.json").Order().ToArray();
        Assert.NotEmpty(files);
        return files.Select(LoadOne).ToList();
    }

    private static Dashboard LoadOne(string file)
    {
        using var json = JsonDocument.Parse(File.ReadAllText(file));
        var root = json.RootElement;
        var title = root.GetProperty("title").GetString()!;
        var panels = new List<DashboardPanel>();
        var queries = new List<DashboardQuery>();

        void Visit(JsonElement panel)
        {
            var panelTitle = panel.TryGetProperty("title", out var t) ? t.GetString() ?? "" : "";
            var type = panel.GetProperty("type").GetString()!;
            var targets = new List<string>();
            if (panel.TryGetProperty("targets", out var targetArray))
            {
                foreach (var target in targetArray.EnumerateArray())
                {
                    var expr = target.GetProperty("expr").GetString()!;
                    targets.Add(expr);
                    queries.Add(new(QueryKind.Panel, $"panel '{panelTitle}' {target.GetProperty("refId").GetString()}", expr,
                        target.TryGetProperty("legendFormat", out var legend) ? legend.GetString() : null, Uid(target),
                        target.TryGetProperty("instant", out var instant) && instant.GetBoolean()));
                }
            }

            panels.Add(new(panel.GetProperty("id").GetInt32(), type, panelTitle, Uid(panel), targets));
            if (panel.TryGetProperty("panels", out var children))
            {
                foreach (var child in children.EnumerateArray())
                {
                    Visit(child);
                }
            }
        }

        foreach (var panel in root.GetProperty("panels").EnumerateArray())
        {
            Visit(panel);
        }

        foreach (var annotation in root.GetProperty("annotations").GetProperty("list").EnumerateArray())
        {
            if (annotation.TryGetProperty("builtIn", out var builtIn) && builtIn.GetInt32() == 1)
            {
                continue;
            }

            var name = annotation.GetProperty("name").GetString();
            var expr = annotation.GetProperty("expr").GetString()!;
            queries.Add(new(QueryKind.Annotation, $"annotation '{name}'", expr, annotation.GetProperty("titleFormat").GetString(), Uid(annotation)));
            if (annotation.TryGetProperty("target", out var target))
            {
                Assert.Equal(expr, target.GetProperty("expr").GetString());
            }
        }

        foreach (var variable in root.GetProperty("templating").GetProperty("list").EnumerateArray())
        {
            if (variable.GetProperty("type").GetString() != "query")
            {
                continue;
            }

            var query = variable.GetProperty("query");
            var expr = query.ValueKind == JsonValueKind.String ? query.GetString()! : query.GetProperty("query").GetString()!;
            queries.Add(new(QueryKind.Variable, $"variable '{variable.GetProperty("name").GetString()}'", expr, null, Uid(variable)));
        }

        return new(file, root.GetProperty("uid").GetString()!, title, panels, queries);
    }

    private static string? Uid(JsonElement element) =>
        element.TryGetProperty("datasource", out var ds) && ds.ValueKind == JsonValueKind.Object && ds.TryGetProperty("uid", out var uid)
            ? uid.GetString()
            : null;
}
