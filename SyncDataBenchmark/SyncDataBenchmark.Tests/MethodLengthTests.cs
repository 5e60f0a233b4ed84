using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SyncData.Harness;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// Fast tier: no method of the non-test code is over <see cref="Limit"/> lines (a method does one thing), counted by
/// Roslyn's syntax tree from a declaration's first line to its last, doc comments not counted; a program's top-level
/// statements count as one method.
/// </summary>
[Trait("Tier", "Fast")]
public sealed class MethodLengthTests
{
    private const int Limit = 50;

    /// <summary>
    /// The ones left, each to go, not to grow: the runner's command and report are another issue's files this session
    /// (issue 66), and OrdersMessages goes with the written road (issue 63). Any other method over the limit fails.
    /// </summary>
    private static readonly HashSet<string> Left =
    [
        "SyncDataBenchmark/SyncDataBenchmark.Runner/BenchCommand.cs RunAsync",
        "SyncDataBenchmark/SyncDataBenchmark.Runner/Report/MarkdownReport.cs Render",
        "SyncDataBenchmark/SyncData.Grpc/OrdersMessages.cs Fill",
    ];

    [Fact]
    public void No_method_of_the_non_test_code_is_over_the_limit()
    {
        var over = Sources().SelectMany(Methods).Where(m => m.Lines > Limit && !Left.Contains(m.Key)).Select(m => $"{m.Where}: {m.Lines} lines").ToList();
        Assert.True(over.Count == 0, $"Over {Limit} lines:\n{string.Join("\n", over)}");
    }

    private static IEnumerable<string> Sources() =>
        Directory.EnumerateFiles(Path.Combine(Lab.RepositoryRoot, "SyncDataBenchmark"), "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                        && !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                        && !f.Contains(".Tests", StringComparison.Ordinal));

    private static IEnumerable<(string Key, string Where, int Lines)> Methods(string path)
    {
        var root = CSharpSyntaxTree.ParseText(File.ReadAllText(path), path: path).GetCompilationUnitRoot();
        var file = Path.GetRelativePath(Lab.RepositoryRoot, path);
        var bodies = root.DescendantNodes().Where(n => n is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or LocalFunctionStatementSyntax);
        foreach (var node in bodies)
        {
            yield return ($"{file.Replace('\\', '/')} {Name(node)}", $"{file}:{Line(node.GetLocation())} {Name(node)}", Lines(node.GetLocation()));
        }

        if (root.Members.OfType<GlobalStatementSyntax>().ToList() is [var first, .., var last])
        {
            yield return ($"{file} top-level statements", $"{file} top-level statements", Lines(Location.Create(root.SyntaxTree, Microsoft.CodeAnalysis.Text.TextSpan.FromBounds(first.SpanStart, last.Span.End))));
        }
    }

    private static int Line(Location location) => location.GetLineSpan().StartLinePosition.Line + 1;

    private static int Lines(Location location)
    {
        var span = location.GetLineSpan();
        return span.EndLinePosition.Line - span.StartLinePosition.Line + 1;
    }

    private static string Name(SyntaxNode node) => node switch
    {
        MethodDeclarationSyntax m => m.Identifier.Text,
        ConstructorDeclarationSyntax c => c.Identifier.Text + " (constructor)",
        LocalFunctionStatementSyntax l => l.Identifier.Text + " (local function)",
        AccessorDeclarationSyntax a => a.Keyword.Text + " accessor",
        _ => node.Kind().ToString(),
    };
}
