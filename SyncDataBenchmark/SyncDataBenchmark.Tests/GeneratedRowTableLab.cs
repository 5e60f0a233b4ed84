using SyncData.Harness;
using SyncData.Postgres;
using Xunit;
using static SyncDataBenchmark.Tests.OwnTablePair;

namespace SyncDataBenchmark.Tests;

/// <summary>
/// What <see cref="GeneratedRowTableTests"/>' cases share, made once for the class on the in-process collection's
/// cluster: the source (users, orders, the awkward orders and the team fixtures), the target given each described
/// table, and one pair of services over them. Made per case before, it took most of the class's time (two databases
/// recreated and seeded, nine tables described and created, two hosts started and each table's classes generated and
/// protoc run again on each). Every case still starts from a target it makes differ or empties by the run's own reload,
/// and a case that alters the source puts the value back.
/// </summary>
public sealed class GeneratedRowTableLab(InProcessLab lab) : IAsyncLifetime
{
    public const string Typed = "\"Team Sales\".\"Typed Lines\"";
    public const string QuotedEnum = "\"Team Sales\".\"Quoted Enum\"";
    public const string Spans = "\"Team Sales\".\"Spans\"";
    public const string Texts = "\"Team Sales\".\"Texts\"";
    public const string OddTypes = "\"Team Sales\".\"Odd Types\"";
    public const string MoneyBits = "\"Team Sales\".\"Money Bits\"";
    public const string Arrays = "\"Team Sales\".\"Arrays\"";
    public const string Ranges = "\"Team Sales\".\"Ranges\"";
    public const string BulkArrays = "\"Team Sales\".\"Bulk Arrays\"";
    public const string Search = "\"Team Sales\".\"Search\"";
    public const string Stamps = "\"Team Sales\".\"Stamps\"";
    private const int Users = 300;
    private const int Orders = 200;

    private static readonly string[] Described = [Typed, QuotedEnum, Spans, Texts, OddTypes, MoneyBits, Arrays, Ranges, BulkArrays, Search, Stamps];

    public string Source { get; private set; } = null!;

    public string Target { get; private set; } = null!;

    /// <summary>Both services in process over <see cref="Source"/> (read only) and <see cref="Target"/>.</summary>
    public InProcessPair Pair { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Source = await ScratchDatabase.RecreateAsync(lab.Postgres, "gen_source");
        await SqlScripts.SeedAsync(Source, SyncTable.Users, Users);
        await Lab.ScalarAsync(Source, "select seed_orders($1, 1)", [Orders]);
        foreach (var fixture in new[] { "awkward-orders.sql", "team-typed.sql", "team-intervals.sql", "team-odd-types.sql", "team-more-types.sql" })
        {
            await Lab.ScalarAsync(Source, await Fixture(fixture));
        }

        Target = await ScratchDatabase.RecreateAsync(lab.Postgres, "gen_target");
        foreach (var name in Described)
        {
            await Lab.ScalarAsync(Target, (await DescribeAsync(Source, name)).Description!.CreateSql);
        }

        Pair = Start(lab, Source, Target);
    }

    public async Task DisposeAsync()
    {
        if (Pair is not null)
        {
            await Pair.DisposeAsync();
        }
    }

    public static Task<string> Fixture(string name) => File.ReadAllTextAsync(Path.Combine(AppContext.BaseDirectory, "Fixtures", name));
}
