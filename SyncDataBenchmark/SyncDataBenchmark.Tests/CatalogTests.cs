using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: TestCase numbers read side by side with the original write-up's table.</summary>
[Trait("Tier", "Fast")]
public sealed class CatalogTests
{
    /// <summary>The original's table (shared/spec/original-write-up.ru.md), written out here as the oracle.</summary>
    public static TheoryData<int, string, string> OriginalCases() => new()
    {
        { 1, "EFOffsetPaging", "EFTypical" },
        { 2, "EFKeysetPaging", "EFTypical" },
        { 3, "EFOffsetPaging", "EFBulk" },
        { 4, "EFKeysetPaging", "EFBulk" },
        { 5, "EFStream", "EFBulk" },
        { 6, "EFStream", "Linq2DB" },
        { 7, "NpgsqlCopy", "EFBulk" },
        { 8, "NpgsqlCopy", "Linq2DB" },
        { 9, "NpgsqlCopy", "NpgsqlCopy" },
        { 10, "EFKeysetPaging", "NpgsqlCopy" },
    };

    [Theory]
    [MemberData(nameof(OriginalCases))]
    public void The_original_cases_keep_the_original_numbers(int number, string fetchName, string insertName)
    {
        var (fetch, insert) = (new FetchApproach(fetchName), new InsertApproach(insertName));
        Assert.Equal(number, CaseNumbers.Numbers[(fetch, insert)]);
        var runnable = CaseNumbers.Runnable.SingleOrDefault(c => c.Fetch == fetch && c.Insert == insert);
        Assert.True(runnable is not null, $"{fetch} × {insert} must be runnable");
        Assert.Equal(number, runnable.Number);
    }

    [Fact]
    public void Every_compatible_combination_has_one_number_and_the_new_ones_follow_10()
    {
        var compatible = (from f in CaseNumbers.Approaches.Fetches from i in CaseNumbers.Approaches.Inserts where CaseNumbers.Approaches.Incompatibility(f, i) is null select (f, i)).ToList();
        Assert.Equal(compatible.Order(), CaseNumbers.Numbers.Keys.Order());
        Assert.Equal(Enumerable.Range(1, compatible.Count), CaseNumbers.Numbers.Values.Order());
        Assert.Equal(compatible.Order(), CaseNumbers.Runnable.Select(c => (c.Fetch, c.Insert)).Order());
        var original = OriginalCases().Select(row => (new FetchApproach((string)row[1]), new InsertApproach((string)row[2]))).ToHashSet();
        Assert.All(CaseNumbers.Numbers.Where(n => !original.Contains(n.Key)), n => Assert.True(n.Value > 10, $"{n.Key} is {n.Value}"));
    }

    [Fact]
    public void Adding_an_approach_never_renumbers_a_published_case()
    {
        // Names carry no declaration order, so only the published numbers (CaseNumbers.Published) are promised: whichever
        // single approach is taken away (as if it were the one just added), every published case keeps its number and
        // every other case is numbered after them.
        var approaches = CaseNumbers.Approaches;
        var now = CaseNumbers.Number(approaches, approaches.Fetches, approaches.Inserts);
        var published = CaseNumbers.Published.Select(p => (new FetchApproach(p.Fetch), new InsertApproach(p.Insert))).ToHashSet();
        var withoutOne = approaches.Inserts.Select(i => CaseNumbers.Number(approaches, approaches.Fetches, approaches.Inserts.Where(x => x != i)))
            .Concat(approaches.Fetches.Select(f => CaseNumbers.Number(approaches, approaches.Fetches.Where(x => x != f), approaches.Inserts)));
        foreach (var before in withoutOne)
        {
            Assert.All(before.Where(n => published.Contains(n.Key)), n => Assert.Equal(n.Value, now[n.Key]));
        }

        Assert.All(now.Where(n => !published.Contains(n.Key)), n => Assert.True(n.Value > CaseNumbers.Published.Count, $"{n.Key} is {n.Value}"));
    }

    [Fact]
    public void The_cases_this_lab_published_keep_their_numbers()
    {
        // README's "Latest results" and artifacts/ name pictures 11..26 by these numbers (26 first published 2026-11-24).
        Assert.Equal(11, CaseNumbers.Numbers[(new FetchApproach("EFStream"), new InsertApproach("EFTypical"))]);
        Assert.Equal(17, CaseNumbers.Numbers[(new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopyRaw"))]);
        Assert.Equal(21, CaseNumbers.Numbers[(new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopyTuned"))]);
        Assert.Equal(26, CaseNumbers.Numbers[(new FetchApproach("NpgsqlCopy"), new InsertApproach("NpgsqlCopyRawTuned"))]);
    }
}
