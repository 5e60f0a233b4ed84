using SyncData.Harness;
using SyncData.Postgres;
using SyncData.Shared;
using SyncDataBenchmark.Runner;
using SyncDataBenchmark.Runner.Report;
using Xunit;

namespace SyncDataBenchmark.Tests;

/// <summary>Fast tier: the plan (links × sizes × profiles × codings × cases × rounds, and the cap's skips) made from options alone, no process started.</summary>
[Trait("Tier", "Fast")]
public sealed class BenchPlanTests
{
    private const string Copy = "NpgsqlCopy:NpgsqlCopy";
    private const string Stream = "EFStream:NpgsqlCopy";

    private static BenchSettings Settings(IReadOnlyList<RuntimeProfile>? profiles = null, double? cap = 5, IReadOnlyList<SyncTable>? tables = null) => new()
    {
        Sizes = [100, 1_000, 10_000],
        Repeat = 2,
        Warmups = 1,
        MaxRunSeconds = cap,
        Cases = CaseSelection.Parse([Copy, Stream], out _),
        Out = new DirectoryInfo(Path.GetTempPath()),
        Profiles = profiles ?? [RuntimeProfiles.Default],
        Compressions = [BodyCompression.None, BodyCompression.Gzip],
        PeerKeys = [PeerDefinition.PsqlBinaryKey],
        Tables = tables ?? [SyncTable.Users],
    };

    [Fact]
    public void A_round_is_a_permutation_of_its_cases_and_peers_that_the_seed_alone_decides()
    {
        var plan = new BenchPlan(Settings() with { Seed = 7 });
        var record = new SessionMeasurements();
        string[] round = [Copy, Copy + "[gzip]", Stream, Stream + "[gzip]", PeerDefinition.PsqlBinaryKey];

        var orders = Enumerable.Range(1, 6).Select(r => plan.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, r, _ => true).Select(i => i.Key).ToList()).ToList();

        // Each round holds every case and peer once, timed, numbered in its order.
        Assert.All(orders, o => Assert.Equal(round.Order(), o.Order()));
        Assert.All(plan.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, 3, _ => true), i => Assert.Equal((3, false), (i.Round, i.Warmup)));
        Assert.Equal(Enumerable.Range(0, 5), plan.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, 1, _ => true).Select(i => i.Index));
        // Not the plan's fixed order every time: the rounds differ from one another.
        Assert.True(orders.Distinct(new KeysComparer()).Count() > 1);
        // The same seed, another plan: the same orders; another seed: other orders.
        var again = new BenchPlan(Settings() with { Seed = 7 });
        Assert.Equal(orders, Enumerable.Range(1, 6).Select(r => again.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, r, _ => true).Select(i => i.Key).ToList()));
        var other = new BenchPlan(Settings() with { Seed = 8 });
        Assert.NotEqual(orders, Enumerable.Range(1, 6).Select(r => other.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, r, _ => true).Select(i => i.Key).ToList()));
        // A round holds only what is still wanted.
        Assert.Equal([PeerDefinition.PsqlBinaryKey], plan.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, 1, i => i.Peer is not null).Select(i => i.Key));
        Assert.Empty(plan.Round(0, NetworkLink.LoopbackName, record, RuntimeProfiles.Default, 1, _ => false));
        // The plan holds no warm-up: the session runs them before a case's first timed run in a service process.
        Assert.DoesNotContain(plan.ItemsAt(0, NetworkLink.LoopbackName, record), i => i.Warmup);
        Assert.Equal((0, true), (plan.ItemsAt(0, NetworkLink.LoopbackName, record)[0].AsWarmup() is var w ? (w.Round, w.Warmup) : default));
    }

    [Fact]
    public void A_described_table_gets_only_the_cases_that_carry_it_and_no_peer()
    {
        SyncData.Postgres.Catalog.TableColumn[] columns = [new("id", "uuid", "uuid_send", true, null, "", null)];
        var view = SyncTable.CatalogViewOf(SyncTable.Users).DescribedAs(new("public", "users", columns, ["id"], [], [], [], []));
        var plan = new BenchPlan(Settings(tables: [SyncTable.Users, view]) with { Compressions = [BodyCompression.None], Cases = CaseSelection.Parse([Copy, Stream, "NpgsqlCopy:NpgsqlCopyRaw"], out _) });

        var items = plan.ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());

        Assert.Equal(new[] { Copy, Stream, "NpgsqlCopy:NpgsqlCopyRaw", PeerDefinition.PsqlBinaryKey }.Order(), items.Where(i => i.Table == SyncTable.Users).Select(i => i.Key).Order());
        // EFStream builds rows of the lab's written classes: not on the view; nor the peers, whose scripts name the lab's tables.
        Assert.DoesNotContain(items, i => i.Table == view && (i.Peer is not null || i.Combination!.Fetch.ToString() == "EFStream"));
        Assert.Contains(items, i => i.Table == view && i.Combination!.Insert.ToString() == "NpgsqlCopyRaw");
    }

    private sealed class KeysComparer : IEqualityComparer<List<string>>
    {
        public bool Equals(List<string>? x, List<string>? y) => x!.SequenceEqual(y!);
        public int GetHashCode(List<string> obj) => string.Join(',', obj).GetHashCode(StringComparison.Ordinal);
    }

    [Fact]
    public void Each_profile_runs_its_rounds_in_one_phase_the_profile_running_first()
    {
        var plan = new BenchPlan(Settings([RuntimeProfiles.Default, RuntimeProfiles.Tuned, RuntimeProfiles.Workstation]) with { Seed = 11 });
        var record = new SessionMeasurements();
        const string link = NetworkLink.LoopbackName;

        // The services start under the first profile: its phase first (no restart), then each other once: one restart
        // each, not one per round (a restart resets the JIT, so every case would warm up again).
        var phases = plan.Phases(0, link, record, RuntimeProfiles.DefaultName);
        Assert.Equal(RuntimeProfiles.Default, phases[0]);
        Assert.Equal(new[] { RuntimeProfiles.DefaultName, RuntimeProfiles.TunedName, RuntimeProfiles.WorkstationName }.Order(), phases.Select(p => p.Name).Order());
        // At the next size the services still run under the last phase's profile: it goes first there.
        Assert.Equal(RuntimeProfiles.Workstation, plan.Phases(1, link, record, RuntimeProfiles.WorkstationName)[0]);

        // A further profile's rounds hold its --profile-cases cases only, every round in that profile; the first profile's
        // rounds every case and the peers, in orders that differ from round to round.
        var tuned = Enumerable.Range(1, 8).Select(r => plan.Round(0, link, record, RuntimeProfiles.Tuned, r, _ => true)).ToList();
        Assert.All(tuned, round => Assert.Equal(new[] { Copy + "@tuned", Copy + "[gzip]@tuned" }.Order(), round.Select(i => i.Key).Order()));
        Assert.All(tuned.SelectMany(r => r), i => Assert.Equal(RuntimeProfiles.Tuned, i.Profile));
        var main = Enumerable.Range(1, 8).Select(r => plan.Round(0, link, record, RuntimeProfiles.Default, r, _ => true).Select(i => i.Key).ToList()).ToList();
        Assert.All(main, round => Assert.Equal(new[] { Copy, Copy + "[gzip]", Stream, Stream + "[gzip]", PeerDefinition.PsqlBinaryKey }.Order(), round.Order()));
        Assert.True(main.Distinct(new KeysComparer()).Count() > 1);
    }

    [Fact]
    public void Each_round_visits_every_table_in_turn_its_cases_then_its_peers_each_its_own_case()
    {
        var plan = new BenchPlan(Settings(tables: [SyncTable.Users, SyncTable.Orders]));

        var round = plan.ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements()).ToList();

        string[] users = [Copy, Copy + "[gzip]", Stream, Stream + "[gzip]", PeerDefinition.PsqlBinaryKey];
        Assert.Equal([.. users, .. users.Select(k => k + "[orders]")], round.Select(i => i.Key));
        Assert.Equal([.. Enumerable.Repeat(SyncTable.Users, 5), .. Enumerable.Repeat(SyncTable.Orders, 5)], round.Select(i => i.Table));
        Assert.Equal(("#9 NpgsqlCopy × NpgsqlCopy [gzip] [orders]", "peer: psql binary pipe [orders]"), (round[6].Title, round[9].Title));
    }

    [Fact]
    public void A_tables_slow_case_is_skipped_for_that_table_only()
    {
        var plan = new BenchPlan(Settings(tables: [SyncTable.Users, SyncTable.Orders]));
        var record = new SessionMeasurements();
        Add(record, plan, Copy, rows: 100, ms: 100);
        Add(record, plan, Copy, rows: 100, ms: 600, SyncTable.Orders); // ×10 rows: 6 s, past the 5 s cap

        var skip = Assert.Single(plan.SkipsAt(NetworkLink.LoopbackName, 1_000, record));

        Assert.Equal(Copy + "[orders]", skip.Case);
        record.Add(skip);
        var items = plan.ItemsAt(1, NetworkLink.LoopbackName, record);
        Assert.DoesNotContain(items, i => i.Key == Copy + "[orders]");
        Assert.Contains(items, i => i.Key == Copy);
    }

    [Fact]
    public void A_further_profile_runs_only_the_profile_cases_without_peers()
    {
        var plan = new BenchPlan(Settings([RuntimeProfiles.Default, RuntimeProfiles.Tuned]));

        var tuned = plan.ItemsAt(1, NetworkLink.LoopbackName, new SessionMeasurements()).Where(i => !i.MainProfile).ToList();

        // --profile-cases' default names NpgsqlCopy:NpgsqlCopy of the two selected; EFStream:NpgsqlCopy is not among them.
        Assert.Equal([Copy + "@tuned", Copy + "[gzip]@tuned"], tuned.Select(i => i.Key));
        Assert.All(tuned, i => Assert.Null(i.Peer));
        Assert.Equal("#9 NpgsqlCopy × NpgsqlCopy [gzip] [tuned]", tuned[1].Title);
    }

    [Fact]
    public void A_case_predicted_past_the_cap_is_skipped_at_that_size_and_every_larger_one_on_its_link_only()
    {
        var plan = new BenchPlan(Settings());
        var record = new SessionMeasurements();
        Add(record, plan, Copy, rows: 100, ms: 600);   // ×10 rows: 6 s, past the 5 s cap
        Add(record, plan, Copy, rows: 100, ms: 900);   // not the best: the prediction uses the best run
        Add(record, plan, Stream, rows: 100, ms: 400); // ×10 rows: 4 s

        var at1000 = plan.SkipsAt(NetworkLink.LoopbackName, 1_000, record);

        var skip = Assert.Single(at1000);
        Assert.Equal((Copy, 1_000L, 6_000.0, "default"), (skip.Case, skip.Rows, skip.PredictedMs, skip.Profile));
        Assert.Contains("past --max-run-seconds 5", skip.Reason);
        record.Add(skip);
        Assert.DoesNotContain(plan.ItemsAt(1, NetworkLink.LoopbackName, record), i => i.Key == Copy);
        Assert.Contains(plan.ItemsAt(1, "100mbit", record), i => i.Key == Copy);
        // At the next size it stays skipped, its prediction scaled on from the skip; the other case now runs past the cap too.
        Assert.Equal([(Copy, 60_000.0)], plan.SkipsAt(NetworkLink.LoopbackName, 10_000, record).Where(s => s.Case == Copy).Select(s => (s.Case, s.PredictedMs)));
        Assert.Empty(plan.SkipsAt("100mbit", 1_000, record));
    }

    [Fact]
    public void Without_a_cap_nothing_is_skipped_and_a_peer_can_be_left_out()
    {
        var plan = new BenchPlan(Settings(cap: null));
        var record = new SessionMeasurements();
        Add(record, plan, Copy, rows: 100, ms: 1_000_000);

        Assert.Empty(plan.SkipsAt(NetworkLink.LoopbackName, 10_000, record));
        Assert.DoesNotContain(plan.Without(plan.Peers).ItemsAt(0, NetworkLink.LoopbackName, record), i => i.Peer is not null);
    }

    private static BenchSettings ChangedSettings(IReadOnlyList<double>? changed, params string[] cases) => Settings() with
    {
        Sizes = [1_000], Changed = changed, PeerKeys = null, Compressions = [BodyCompression.None],
        Cases = cases.Length == 0 ? CaseSelection.All : CaseSelection.Parse(cases, out _),
    };

    [Fact]
    public void Changed_mode_runs_every_merge_writer_with_the_change_and_full_fetches_and_the_reloads_at_every_share_then_the_change_peers()
    {
        var plan = new BenchPlan(ChangedSettings([0.001, 0.01]));
        var catalog = CaseNumbers.Approaches;

        var round = plan.ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements()).ToList();

        var merges = catalog.Inserts.Where(i => catalog[i].Merges).ToList();
        var changeFetches = catalog.Fetches.Where(f => catalog[f].Changes).ToList();
        Assert.NotEmpty(merges);
        Assert.NotEmpty(changeFetches);
        // Every merge writer with every fetch that can feed it (the change fetches and the full ones), and every reload with every full fetch.
        // That is every runnable combination: a change fetch runs only with a merge writer (ApproachCatalog.Incompatibility).
        Assert.Equal(CaseNumbers.Runnable.Select(c => c.Key), plan.Combinations.Select(c => c.Key));
        // Each merge writer with each change fetch it can read (the COPY-bytes merge only with the COPY one).
        Assert.All(merges, m => Assert.All(changeFetches.Where(f => catalog.Incompatibility(f, m) is null), f => Assert.Contains(plan.Combinations, c => c.Fetch == f && c.Insert == m)));
        Assert.All(merges, m => Assert.Contains(plan.Combinations, c => c.Insert == m && catalog[c.Fetch].Changes));
        Assert.Contains(plan.Combinations, c => c.Merges && !catalog[c.Fetch].Changes);
        Assert.Contains(plan.Combinations, c => !c.Merges);
        Assert.DoesNotContain(plan.Combinations, c => catalog[c.Fetch].Changes && !c.Merges);
        // Each share is a round of its own cases and peers: [0.1%] first, then [1%]; the peers are the change peers and the psql binary pipe.
        string[] peers = [PeerDefinition.PsqlBinaryKey, PeerDefinition.PsqlMergeKey, PeerDefinition.PostgresFdwMergeKey, PeerDefinition.LogicalReplicationCatchupKey];
        Assert.Equal([.. plan.Combinations.Select(c => c.Key + "[0.1%]"), .. peers.Select(p => p + "[0.1%]"), .. plan.Combinations.Select(c => c.Key + "[1%]"), .. peers.Select(p => p + "[1%]")],
            round.Select(i => i.Key));
        Assert.Equal([.. Enumerable.Repeat<double?>(0.001, round.Count / 2), .. Enumerable.Repeat<double?>(0.01, round.Count / 2)], round.Select(i => i.Share));
        Assert.EndsWith(" [1%]", round[^1].Title, StringComparison.Ordinal);
    }

    [Fact]
    public void Without_changed_no_merge_writer_change_fetch_or_change_peer_is_planned()
    {
        var plan = new BenchPlan(ChangedSettings(null));

        var items = plan.ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements());

        Assert.DoesNotContain(items, i => i.Combination is { Merges: true } || i.Peer is { Changes: true } || i.Share is not null);
        Assert.Equal(CaseNumbers.Runnable.Count(c => !c.Merges), plan.Combinations.Count);
        Assert.DoesNotContain(items, i => i.Key.Contains('%', StringComparison.Ordinal));
    }

    [Fact]
    public void Cases_narrow_the_changed_plan()
    {
        var plan = new BenchPlan(ChangedSettings([0.01], "*:EFMerge", "NpgsqlCopy:NpgsqlCopy"));

        Assert.Equal([.. CaseNumbers.Runnable.Where(c => c.Insert.Name == "EFMerge" || c.Key == "NpgsqlCopy:NpgsqlCopy").Select(c => c.Key)], plan.Combinations.Select(c => c.Key));
        Assert.Contains(plan.Combinations, c => c.Key == "NpgsqlCopy:NpgsqlCopy");
        Assert.Contains(plan.Combinations, c => c.Merges);
    }

    private static void Add(SessionMeasurements record, BenchPlan plan, string key, long rows, double ms, SyncTable? table = null)
    {
        var c = plan.Combinations.Single(x => x.Key == key);
        var item = plan.ItemsAt(0, NetworkLink.LoopbackName, new SessionMeasurements()).First(i => i.Combination == c && i.Table == (table ?? SyncTable.Users));
        record.Add(new CombinationRun
        {
            Number = c.Number, Case = item.Case, Table = item.Table.Name, Fetch = $"{c.Fetch}", Insert = $"{c.Insert}", Round = 1, Warmup = false, WallMs = ms, RunnerVerified = true, SourceRows = rows,
            Result = new RunResult
            {
                Id = Guid.NewGuid(), Fetch = $"{c.Fetch}", Insert = $"{c.Insert}", Status = RunStatus.Succeeded, Verified = true, StartedAt = DateTimeOffset.UnixEpoch, DurationMs = ms,
            },
        });
    }
}
