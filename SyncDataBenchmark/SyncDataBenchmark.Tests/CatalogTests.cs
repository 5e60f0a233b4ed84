using SyncData.Shared;
using SyncDataBenchmark.Runner;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: TestCase numbers read side by side with the original write-up's table.</summary>
public sealed class CatalogTests
{
    /// <summary>The original's table (shared/spec/original-write-up.ru.md), written out here as the oracle.</summary>
    public static TheoryData<int, FetchApproach, InsertApproach> OriginalCases() => new()
    {
        { 1, FetchApproach.EFOffsetPaging, InsertApproach.EFTypical },
        { 2, FetchApproach.EFKeysetPaging, InsertApproach.EFTypical },
        { 3, FetchApproach.EFOffsetPaging, InsertApproach.EFBulk },
        { 4, FetchApproach.EFKeysetPaging, InsertApproach.EFBulk },
        { 5, FetchApproach.EFStream, InsertApproach.EFBulk },
        { 6, FetchApproach.EFStream, InsertApproach.Linq2DB },
        { 7, FetchApproach.NpgsqlCopy, InsertApproach.EFBulk },
        { 8, FetchApproach.NpgsqlCopy, InsertApproach.Linq2DB },
        { 9, FetchApproach.NpgsqlCopy, InsertApproach.NpgsqlCopy },
        { 10, FetchApproach.EFKeysetPaging, InsertApproach.NpgsqlCopy },
    };

    [Theory]
    [MemberData(nameof(OriginalCases))]
    public void The_original_cases_keep_the_original_numbers(int number, FetchApproach fetch, InsertApproach insert)
    {
        Assert.Equal(number, Catalog.Numbers[(fetch, insert)]);
        var runnable = Catalog.Runnable.SingleOrDefault(c => c.Fetch == fetch && c.Insert == insert);
        var blocked = Catalog.Blocked.SingleOrDefault(b => b.Fetch == fetch && b.Insert == insert);
        Assert.True(runnable is not null ^ blocked is not null, $"{fetch} × {insert} must be exactly one of runnable or blocked");
        Assert.Equal(number, runnable?.Number ?? blocked!.Number);
    }

    [Fact]
    public void Every_compatible_combination_has_one_number_and_the_new_ones_follow_10()
    {
        var compatible = (from f in Approaches.Fetches from i in Approaches.Inserts where Approaches.Incompatibility(f, i) is null select (f, i)).ToList();
        Assert.Equal(compatible.Order(), Catalog.Numbers.Keys.Order());
        Assert.Equal(Enumerable.Range(1, compatible.Count), Catalog.Numbers.Values.Order());
        Assert.Equal(compatible.Order(), Catalog.Runnable.Select(c => (c.Fetch, c.Insert)).Concat(Catalog.Blocked.Select(b => (b.Fetch, b.Insert))).Order());
        var original = OriginalCases().Select(row => ((FetchApproach)row[1], (InsertApproach)row[2])).ToHashSet();
        Assert.All(Catalog.Numbers.Where(n => !original.Contains(n.Key)), n => Assert.True(n.Value > 10, $"{n.Key} is {n.Value}"));
    }

    [Fact]
    public void An_insert_approach_added_at_the_end_only_adds_numbers()
    {
        // Numbering as it was before the last insert approach existed: adding it renumbered nothing.
        var before = Catalog.Number(Approaches.Fetches, Approaches.Inserts.SkipLast(1));
        var now = Catalog.Number(Approaches.Fetches, Approaches.Inserts);
        Assert.All(before, n => Assert.Equal(n.Value, now[n.Key]));
        Assert.All(now.Keys.Except(before.Keys), k => Assert.True(now[k] > before.Values.Max()));
    }
}
