#!/usr/bin/env python3
"""Draws the benchmark's pictures with matplotlib (Debian: python3-matplotlib) from the report's tables.

    plot.py TABLES_JSON [OUT_DIR | --out DIR]    writes N.png per combination, summary.png (medians with their intervals,
                                                sorted, ties shaded together), grid.png (fetch × insert: the ratio to the
                                                psql binary pipe, median/median, with its interval), for a sweep growth.png,
                                                and with a shaped --link links.png (time against link rate per case);
                                                for a table other than users the same with its name: summary-orders.png;
                                                with --changed summary-1pct.png per share and changed.png (time against
                                                the changed share per case, log–log, the crossovers marked)
    plot.py --version                            prints matplotlib's version (the runner's pre-flight check)

TABLES_JSON is what the runner derives from results.json when it writes a report (Report/ReportTables: the summary
table's rows, per link, and for a sweep per size; with the parameters and the runs whose samples are drawn), so the
pictures show the figures results.md shows and this script computes none of them; `--report-from DIR` redraws.
N.png shows the run the summary row names (the best successful one): both services' working set, allocation
rate and GC collections over the run's time, from the samples each service recorded (one point per <= 50 ms,
RuntimeWindow.SampleInterval), with the timed part (durationMs) shaded.
"""
import argparse
import json
import os
import sys

MIB = 1024 * 1024
# Every full run commits its pictures; 72 dpi keeps them readable and the repository growth per run small.
DPI = 72
# GC.GetTotalAllocatedBytes(precise: false) lags by up to an allocation context per thread, so a rate over one
# 50 ms step shows spikes that are bookkeeping, not allocation; over a quarter second they average out. A run of a
# few hundred ms would then be one flat step: the window shrinks to a tenth of the run, down to one sample step.
RATE_WINDOW_MS = 250
SAMPLE_STEP_MS = 50
SERVICES = (("someService", "SomeService", "tab:blue"), ("syncDataSource", "SyncDataSource", "tab:orange"))
GENERATIONS = (("gen0", "-"), ("gen1", "--"), ("gen2", ":"))
# changed.png: each kind's line style and palette (the peers' darker, apart from the cases').
CHANGED_KINDS = {"merge": ("-", "tab20"), "reload": ("--", "tab20"), "peer": (":", "Dark2")}
# A marker count prime to both palettes' sizes: colour and marker together repeat only after their product.
CHANGED_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", help="the tables' JSON the runner writes from results.json")
    parser.add_argument("out_dir", nargs="?", help="output directory (same as --out)")
    parser.add_argument("--out", help="output directory (default: next to the tables' JSON)")
    parser.add_argument("--version", action="store_true", help="print matplotlib's version and exit")
    args = parser.parse_args()

    import matplotlib  # imported here so --version fails the same way a real run would

    matplotlib.use("Agg")
    if args.version:
        print(f"matplotlib {matplotlib.__version__}")
        return 0
    if not args.results:
        parser.error("the tables' JSON is required")

    with open(args.results, encoding="utf-8") as f:
        report = json.load(f)
    out = args.out or args.out_dir or os.path.dirname(os.path.abspath(args.results))
    os.makedirs(out, exist_ok=True)

    runs = {r["result"]["id"]: r for r in report["runs"] if r.get("result")}
    for row in report["summary"]:
        if row["kind"] != "combination":
            continue
        run = runs.get(row.get("pictureRunId"))
        draw_case(row, run, report["complete"], os.path.join(out, row["picture"]))
    # A splitting dimension's value (the table, the changed share) is a summary of its own: summary.png for users,
    # summary-orders.png, summary-1pct.png (a % in a file name is an escape in a link).
    for split, part in splits(report):
        draw_summary(part, split, os.path.join(out, f"summary{file_part(split)}.png"))
        draw_grid(part, split, os.path.join(out, f"grid{file_part(split)}.png"))
        if any(len(g["points"]) > 1 for g in part["growth"]):
            draw_growth(part, os.path.join(out, f"growth{file_part(split)}.png"))
        if any(r["kind"] == "combination" and not r["mainProfile"] for r in part["summary"]):
            draw_profiles(part, os.path.join(out, f"profiles{file_part(split)}.png"))
        if any(link["rateBitsPerSecond"] for link in part["links"]):
            draw_links(part, os.path.join(out, f"links{file_part(split)}.png"))
    changed = report.get("changed")
    if changed:
        for split in dict.fromkeys(s["split"] for s in changed["series"]):
            draw_changed(report, changed, split, os.path.join(out, f"changed{file_part(split)}.png"))
    return 0


def file_part(split):
    """A split as a file name part: "-1%" → "-1pct"."""
    return split.replace("%", "pct")


def splits(report):
    """Each split the rows name (row["split"]: "" for users, "-orders"), in order, with the report's rows of that split alone."""
    rows = report["summary"] + report["growth"] + [r for link in report["links"] for r in link["cases"]]
    names = list(dict.fromkeys(r.get("split", "") for r in rows)) or [""]
    for split in names:
        def mine(items):
            return [r for r in items if r.get("split", "") == split]
        yield split, dict(report, summary=mine(report["summary"]), growth=mine(report["growth"]),
                          links=[dict(link, cases=mine(link["cases"])) for link in report["links"]])


def case_order(report):
    """One order for every panel and picture: combinations by TestCase number, then the peers as the runner lists them."""
    keys = []
    # A case skipped at the largest size is only in the growth section: it keeps its place (and colour) all the same.
    rows = [r for r in report["summary"] if r["kind"] in ("combination", "peer")] + list(report["growth"])
    rows.sort(key=lambda r: (r["kind"] != "combination", r.get("number") or 0))
    for r in rows:
        if r["case"] not in keys:
            keys.append(r["case"])
    return keys


def case_colors(report):
    """A colour per case, the same in summary.png and growth.png."""
    import matplotlib

    palette = matplotlib.colormaps["tab20"].colors
    return {key: palette[i % len(palette)] for i, key in enumerate(case_order(report))}


def runs_of(rows, word="best"):
    """"best of 3", or "best of 1–3" when the rows recorded different numbers of timed runs: a stopped session records
    fewer than --repeat asked for. Rows never timed are left out; their own labels say so (no_best)."""
    counts = sorted({r["timedRuns"] for r in rows if r.get("timedRuns")})
    if not counts:
        return "no timed run"
    return f"{word} of {counts[0]}" + (f"–{counts[-1]}" if counts[-1] != counts[0] else "")


def no_best(row, complete):
    """What a row without a best time says: every timed run failed, or it was never timed (not reached, when stopped)."""
    if row.get("timedRuns"):
        return "no successful run"
    return "not run" if complete else "not run (interrupted)"


def rate_window_ms(duration_ms):
    if not duration_ms:
        return RATE_WINDOW_MS
    return max(SAMPLE_STEP_MS, min(RATE_WINDOW_MS, duration_ms / 10))


def series(figures, window_ms=RATE_WINDOW_MS):
    """Seconds, working set (MiB), allocation rate (MiB/s) and exclusive GC counts since the window opened."""
    samples = (figures or {}).get("samples") or []
    if not samples:
        return None
    t = [s["elapsedMs"] / 1000 for s in samples]
    ws = [s["workingSetBytes"] / MIB for s in samples]
    rate = []
    start = 0
    for b in samples:
        while start < len(samples) - 1 and b["elapsedMs"] - samples[start + 1]["elapsedMs"] >= window_ms:
            start += 1
        a = samples[start]
        dt = (b["elapsedMs"] - a["elapsedMs"]) / 1000
        rate.append((b["allocatedBytes"] - a["allocatedBytes"]) / MIB / dt if dt > 0 else 0.0)
    first = samples[0]["gcCollections"]
    inclusive = [[s["gcCollections"][g] - first[g] for s in samples] for g in range(3)]
    # GC.CollectionCount(n) also counts collections of higher generations; the table's figures are exclusive.
    exclusive = [
        [a - b for a, b in zip(inclusive[0], inclusive[1])],
        [a - b for a, b in zip(inclusive[1], inclusive[2])],
        inclusive[2],
    ]
    return t, ws, rate, exclusive


def draw_case(row, run, complete, path):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(11, 9), sharex=True)
    title = f"{row['label']} [{row['profile']}]"
    result = (run or {}).get("result")
    if result is None:
        fig.suptitle(f"{title}: no run with samples", fontsize=13)
        for ax in axes:
            ax.text(0.5, 0.5, "no samples: every run failed before measuring", ha="center", va="center", transform=ax.transAxes)
        save(fig, path, dpi=DPI)
        return

    from matplotlib.ticker import MaxNLocator

    state = "verified" if result.get("verified") else f"{result.get('status')}, not verified"
    duration = result.get("durationMs")
    best = (f"{runs_of([row])}: {duration:,.0f} ms" if duration is not None and row.get("bestMs")
            else f"{no_best(row, complete)}: its {'last attempt' if row.get('timedRuns') else 'warm-up'}")
    fig.suptitle(f"{title} — {best}, {result.get('rows', 0):,} rows, {state}", fontsize=13)
    window = rate_window_ms(duration)
    few = False
    end = 0.0
    ws_all = []
    for key, name, color in SERVICES:
        data = series(result.get(key), window)
        if data is None:
            continue
        t, ws, rate, gcs = data
        end = max(end, t[-1])
        ws_all += ws
        # Few samples (a sub-second run): show each one, so the reader sees what the line is drawn through.
        few = len(t) < 40
        marker = "o" if few else None
        axes[0].plot(t, ws, color=color, label=name, marker=marker, markersize=3)
        figures = result.get(key) or {}
        sampled = [x["allocatedBytes"] for x in figures.get("samples") or []]
        if figures.get("allocatedBytes") is None:
            # Under DATAS with a heap-count change the counter jumps (dotnet/runtime#131069): no rate can be drawn.
            axes[1].plot([], [], color=color, label=f"{name}: n/a (DATAS changed the heap count)")
        elif sampled and max(sampled) == min(sampled) and figures["allocatedBytes"] > MIB:
            # The run allocated, but the sampled (imprecise) counter never moved: a flat zero would read as "none".
            axes[1].plot([], [], color=color,
                         label=f"{name}: n/a (sampled counter did not move; {figures['allocatedBytes'] / MIB:,.0f} MiB over the run)")
        else:
            axes[1].plot(t, rate, color=color, label=name, linewidth=0.9, marker=marker, markersize=3)
        for (gen, style), counts in zip(GENERATIONS, gcs):
            axes[2].step(t, counts, where="post", color=color, linestyle=style, label=f"{name} {gen}")

    axes[0].set_ylabel("working set (MiB)")
    axes[1].set_ylabel(f"allocation rate (MiB/s,\nover {window:.0f} ms)")
    axes[2].set_ylabel("GC collections\n(cumulative, exclusive)")
    axes[2].set_xlabel("seconds since the measurement window opened (shaded: the timed part, durationMs; "
                       f"samples every {SAMPLE_STEP_MS} ms)")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        if duration:
            # The timed part: truncate to commit; what follows is the in-transaction verification and the window's close.
            ax.axvspan(0, duration / 1000, color="tab:green", alpha=0.07, label="_timed")
            ax.axvline(duration / 1000, color="tab:green", linestyle="--", linewidth=0.8)
        ax.legend(loc="upper left", fontsize=8, ncol=2)
    if end > 0:
        axes[2].set_xlim(0, max(end, (duration or 0) / 1000) * 1.02)
    if ws_all:
        # Not from 0: the differences within a run are tens of MiB on top of ~150 MiB; margins keep lines off the frame.
        low, high = min(ws_all), max(ws_all)
        pad = max((high - low) * 0.15, 2)
        axes[0].set_ylim(max(0, low - pad), high + pad)
    rate_top = axes[1].get_ylim()[1]
    axes[1].set_ylim(-0.03 * rate_top, rate_top * 1.05)
    axes[2].yaxis.set_major_locator(MaxNLocator(integer=True))
    top = axes[2].get_ylim()[1]
    # A little below 0: an all-zero count is a visible line, not the frame.
    axes[2].set_ylim(-0.05 * max(1, top), max(1, top * 1.1))
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    save(fig, path, dpi=DPI)


def save(fig, path, **savefig_args):
    """Writes the picture and frees the figure: every picture goes through here (the tests read the figures here)."""
    import matplotlib.pyplot as plt

    fig.savefig(path, **savefig_args)
    plt.close(fig)


def figure(medians, field):
    """A summary's median; allocation as results.md shows it (the tick sum where GC.GetTotalAllocatedBytes is not
    valid under DATAS)."""
    return medians.get("shownAllocatedBytes" if field == "allocatedBytes" else field)


def draw_summary(report, split, path):
    import matplotlib.pyplot as plt

    # The headline: the main profile's rows (the others are in profiles.png).
    rows = [r for r in report["summary"] if r["mainProfile"]]
    order = {key: i for i, key in enumerate(case_order(report))}
    timed = sorted([r for r in rows if r["kind"] in ("combination", "peer")], key=lambda r: order.get(r["case"], 1e9))
    combos = [r for r in timed if r["kind"] == "combination" and r.get("someService")]
    colors = case_colors(report)

    height = max(3, 0.3 * len(timed) + 1.2) + 2 * max(2.5, 0.4 * len(combos) + 1.2)
    fig, (ax_time, ax_alloc, ax_ws) = plt.subplots(
        3, 1, figsize=(12, height),
        gridspec_kw={"height_ratios": [len(timed) + 1, len(combos) + 1, len(combos) + 1]})
    p = report["parameters"]
    sizes = p["sizes"]
    fig.suptitle(f"{p['rows']:,} rows" + (f" of {split[1:]}" if split else "") + f" — {runs_of(timed, 'median')}" + (" — tmpfs" if p["tmpfs"] else "")
                 + (f" — the largest of {len(sizes)} sizes (growth.png has the others)" if len(sizes) > 1 else ""), fontsize=13)

    # Sorted by median (the one figure every table ranks by), rows never timed last; whiskers: each median's 97.5% interval.
    timed.sort(key=lambda r: (r.get("medianMs") is None, r.get("medianMs") or 0))
    values = [(r.get("medianMs") or 0) / 1000 for r in timed]
    y = range(len(timed))
    ax_time.barh(y, values, color=[colors.get(r["case"], "grey") for r in timed],
                 edgecolor=["black" if r["kind"] == "peer" else "none" for r in timed], hatch=None)
    for i, r in enumerate(timed):
        if r.get("medianLowerMs") is not None and r.get("medianUpperMs") is not None:
            ax_time.plot([max(r["medianLowerMs"], 1e-3) / 1000, r["medianUpperMs"] / 1000], [i, i], color="black", linewidth=1, label="_interval")
    # Ties (no test tells them apart) grouped: each run of neighbours tied with the one above shares a shaded band.
    for start, end in tie_groups(timed):
        ax_time.axhspan(start - 0.45, end + 0.45, color="gold", alpha=0.18, linewidth=0)
    positive = [v for v in values if v > 0]
    smallest = min(positive) if positive else 1
    for i, r in enumerate(timed):
        text = f"{r['medianMs']:,.0f} ms" if r.get("medianMs") is not None else no_best(r, report["complete"])
        ratio = r.get("ratioToPsqlBinary")
        interval = r.get("ratioInterval")
        if ratio is not None and r.get("peer") != "psql-binary":
            text += f"  {ratio:.2f}× pipe" + (f" [{interval['lower']:.2f}–{interval['upper']:.2f}]" if interval else "")
        if r.get("medianMs") is not None:
            text += f"  n={len_ok(r)}"
        if r.get("rank"):
            text += f"  (rank {r['rank']})"
        ax_time.text(max(values[i], smallest), i, " " + text, va="center", fontsize=8)
    ax_time.set_yticks(list(y), [("≈ " if tied_with_above(timed, i) else "") + r["label"] for i, r in enumerate(timed)], fontsize=8)
    ax_time.invert_yaxis()
    if positive:
        ax_time.set_xscale("log")
        ax_time.set_xlim(left=smallest / 2, right=max(positive) * 6)
    psql = next((r for r in timed if r.get("peer") == "psql-binary" and r.get("medianMs")), None)
    if psql:
        # The physical limit: one stream, no parsing; everything right of this line is overhead.
        ax_time.axvline(psql["medianMs"] / 1000, color="black", linestyle="--", alpha=0.5)
    ax_time.set_xlabel("process time, median of the timed runs (s, log scale), whiskers its 97.5% interval; sorted by median;\n"
                      "shaded and ≈ = not told apart from the row above (a tie); outlined = peers, dashed = psql binary pipe", fontsize=8)
    ax_time.grid(True, axis="x", alpha=0.3)

    names = [r["label"] for r in combos]
    width = 0.4
    for ax, field, unit in ((ax_alloc, "allocatedBytes", "allocated per run (MiB, median, log scale: KiB and GiB on one axis)"),
                            (ax_ws, "peakWorkingSetBytes", "peak working set (MiB, median; axis not from 0)")):
        drawn = []
        for k, (key, name, color) in enumerate(SERVICES):
            # An unavailable allocation figure (DATAS) draws no bar, never a zero one that reads as a measurement.
            vals = [(figure(r.get(key) or {}, field) or 0) / MIB for r in combos]
            drawn += [v for v in vals if v > 0]
            ax.barh([i + (k - 0.5) * width for i in range(len(combos))], vals, height=width, color=color, label=name)
            if field == "allocatedBytes":
                for i, v in enumerate(vals):
                    if v == 0:
                        ax.text(0, i + (k - 0.5) * width, f" {name}: n/a (see results.md)", va="center", fontsize=7, color="grey",
                                transform=ax.get_yaxis_transform())
        if drawn and field == "allocatedBytes":
            ax.set_xscale("log")
            ax.set_xlim(min(drawn) / 2, max(drawn) * 2)
        elif drawn:
            low, high = min(drawn), max(drawn)
            pad = max((high - low) * 0.1, 2)
            ax.set_xlim(max(0, low - 3 * pad), high + pad)
        ax.set_yticks(list(range(len(combos))), names, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        # Above the panel, not over a bar.
        ax.legend(fontsize=8, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=2, frameon=False)
        ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    save(fig, path, dpi=DPI)


def len_ok(row):
    """The successful timed runs a row's median is of."""
    return row["timedRuns"] - row.get("failures", 0)


def tied_with_above(rows, i):
    """Whether row i and the row above are combinations no test tells apart (the summary's tiedWith)."""
    return i > 0 and rows[i - 1]["case"] in (rows[i].get("tiedWith") or [])


def tie_groups(rows):
    """(first, last) index of each run of two or more neighbours, each tied with the one above."""
    groups, start = [], None
    for i in range(len(rows)):
        if tied_with_above(rows, i):
            start = i - 1 if start is None else start
        elif start is not None:
            groups.append((start, i - 1))
            start = None
    if start is not None:
        groups.append((start, len(rows) - 1))
    return groups


def draw_grid(report, split, path):
    """Fetch × insert: each combination's median/median ratio to the psql binary pipe, colour on a log scale around 1."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm

    rows = [r for r in report["summary"] if r["kind"] == "combination" and r["mainProfile"] and r.get("ratioToPsqlBinary")]
    if not rows:
        return
    fetches = list(dict.fromkeys(r["fetch"] for r in sorted(rows, key=lambda r: r.get("number") or 0)))
    inserts = list(dict.fromkeys(r["insert"] for r in sorted(rows, key=lambda r: r.get("number") or 0)))
    cells = {(r["fetch"], r["insert"]): r for r in rows}
    import numpy as np
    grid = np.full((len(fetches), len(inserts)), np.nan)
    for (f, i), r in cells.items():
        grid[fetches.index(f), inserts.index(i)] = r["ratioToPsqlBinary"]
    present = grid[~np.isnan(grid)]
    spread = max(float(np.max(present)), 1 / float(np.min(present)), 1.5)
    fig, ax = plt.subplots(figsize=(max(9, 1.3 * len(inserts) + 4), max(4, 0.7 * len(fetches) + 2.4)))
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="RdYlGn_r", norm=LogNorm(vmin=1 / spread, vmax=spread), aspect="auto")
    for (f, i), r in cells.items():
        interval = r.get("ratioInterval")
        text = f"{r['ratioToPsqlBinary']:.2f}×" + (f"\n[{interval['lower']:.2f}–{interval['upper']:.2f}]" if interval else "")
        ax.text(inserts.index(i), fetches.index(f), text, ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(inserts)), inserts, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(fetches)), fetches, fontsize=8)
    ax.set_xlabel("insert (SomeService's writer)")
    ax.set_ylabel("fetch")
    fig.colorbar(image, ax=ax, label="median / the pipe's median (log; < 1: faster)")
    p = report["parameters"]
    fig.suptitle(f"Ratio to the psql binary pipe, median/median [95% interval]\n{p['rows']:,} rows" + (f" of {split[1:]}" if split else ""), fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    save(fig, path, dpi=DPI)


def draw_changed(report, changed, split, path):
    """--changed: each case's median time against the changed share (log–log): merges solid, reloads dashed, peers
    dotted, each series in a colour and marker of its own (changed_styles), and each library's crossover (its fastest reload catching up with its fastest merge) as a vertical line."""
    import matplotlib.pyplot as plt

    series = [s for s in changed["series"] if s["split"] == split]
    # Every case of a full matrix is a legend entry: in columns, and the figure as tall as the legend needs.
    columns = 1 if len(series) <= 40 else 2
    fig, ax = plt.subplots(figsize=(12, max(7, 0.16 * -(-len(series) // columns))))
    for s, (line, marker, color) in zip(series, changed_styles(series)):
        points = [(p["share"] * 100, p["medianMs"] / 1000) for p in s["points"] if p.get("medianMs")]
        if not points:
            continue
        ax.plot([x for x, _ in points], [y for _, y in points], linestyle=line, marker=marker, color=color,
                label=f"{s['label']} ({s['kind']})", linewidth=1.5 if s["kind"] != "reload" else 1.0)
    for c in changed["crossovers"]:
        if c["split"] == split and c.get("share"):
            ax.axvline(c["share"] * 100, color="grey", linestyle="-.", alpha=0.6)
            ax.text(c["share"] * 100, 1.0, f" {c['library']}", rotation=90, va="top", fontsize=8, transform=ax.get_xaxis_transform())
    ax.set_xscale("log")
    ax.set_yscale("log")
    shares = sorted({p["share"] * 100 for s in series for p in s["points"]})
    ax.set_xticks(shares, [f"{x:g}%" for x in shares])
    ax.set_xlabel("share of the source's rows changed before the run (log scale)")
    ax.set_ylabel("time, median of the timed runs (s, log scale)")
    p = report["parameters"]
    ax.set_title(f"{p['rows']:,} rows" + (f" of {split[1:]}" if split else "") + f" — merge the changes or reload everything ({runs_of([pt for s in series for pt in s['points']], 'median')});"
                 " dash-dot: where a library's reload catches up", fontsize=11)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, ncol=columns)
    fig.tight_layout()
    save(fig, path, dpi=DPI, bbox_inches="tight")


def changed_styles(series):
    """Per series of changed.png, its (line style, marker, colour): the line style is its kind's; within a kind each
    series takes the next colour and the next marker, so no two series of a kind are drawn alike (up to
    CHANGED_MARKERS × palette)."""
    import matplotlib

    drawn = {}
    styles = []
    for s in series:
        line, palette = CHANGED_KINDS[s["kind"]]
        colors = matplotlib.colormaps[palette].colors
        k = drawn.get(s["kind"], 0)
        drawn[s["kind"]] = k + 1
        styles.append((line, CHANGED_MARKERS[k % len(CHANGED_MARKERS)], colors[k % len(colors)]))
    return styles


def draw_growth(report, path):
    """Time and peak working set per service against rows, log–log, one line per case; skipped sizes as hollow predictions."""
    import matplotlib.pyplot as plt

    colors = case_colors(report)
    order = {key: i for i, key in enumerate(case_order(report))}
    growth = sorted([g for g in report["growth"] if g["mainProfile"] and g["points"]],
                    key=lambda g: order.get(g["case"], 1e9))
    # Each point is the case's summary row at that size.
    panels = [("best time (s)", lambda row: (row.get("bestMs") or 0) / 1000, "time"),
              ("SomeService peak working set (MiB)", lambda row: ((row.get("someService") or {}).get("peakWorkingSetBytes") or 0) / MIB, "someServiceWorkingSet"),
              ("SyncDataSource peak working set (MiB)", lambda row: ((row.get("syncDataSource") or {}).get("peakWorkingSetBytes") or 0) / MIB, "syncDataSourceWorkingSet")]
    fig, axes = plt.subplots(1, 3, figsize=(18, 6.5))
    sizes = report["parameters"]["sizes"]
    fig.suptitle(f"How cost grows with rows — {runs_of([pt['summary'] for g in growth for pt in g['points']])} per size, log–log; k = fitted exponent "
                 "(1 linear, 2 quadratic, 0 flat)", fontsize=13)
    for ax, (unit, pick, exponent_key) in zip(axes, panels):
        for g in growth:
            pts = [(pt["rows"], pick(pt["summary"])) for pt in g["points"] if pick(pt["summary"]) > 0]
            if not pts:
                continue
            e = g.get(exponent_key)
            label = g["title"] + (f"  k={e['exponent']:.2f}" if e else "")
            ax.plot([x for x, _ in pts], [v for _, v in pts], marker="o", color=colors.get(g["case"], "grey"), label=label)
            if exponent_key == "time":
                for sk in g.get("skipped") or []:
                    ax.plot([pts[-1][0], sk["rows"]], [pts[-1][1], sk["predictedMs"] / 1000], linestyle=":",
                            color=colors.get(g["case"], "grey"))
                    ax.plot([sk["rows"]], [sk["predictedMs"] / 1000], marker="o", markerfacecolor="white",
                            color=colors.get(g["case"], "grey"))
        ax.set_xscale("log")
        ax.set_yscale("log")
        if sizes:
            ax.set_xticks(sizes, [f"{s:,}" for s in sizes], fontsize=8)
            ax.minorticks_off()
            ax.set_xlim(min(sizes) / 1.5, max(sizes) * 1.5)
        values = [v for line in ax.get_lines() for v in line.get_ydata() if v > 0]
        if values and max(values) / min(values) < 10:
            # Within one decade a log axis labels nothing: plain ticks at round values (still log-spaced).
            from matplotlib.ticker import MaxNLocator
            ticks = [t for t in MaxNLocator(6).tick_values(min(values), max(values)) if t > 0]
            ax.minorticks_off()
            ax.set_yticks(ticks, [f"{t:g}" for t in ticks])
            ax.set_ylim(min(values) / 1.05, max(values) * 1.05)
        ax.set_xlabel("rows (log scale)")
        ax.set_ylabel(unit + ", log scale")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    if any(g.get("skipped") for g in growth):
        axes[0].text(0.99, 0.01, "hollow, dotted: skipped, predicted past --max-run-seconds", transform=axes[0].transAxes,
                     ha="right", va="bottom", fontsize=8, color="dimgrey")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    save(fig, path, dpi=DPI)


def draw_profiles(report, path):
    """The profile cases side by side: best time, and per service peak working set, GC pause and collections."""
    import matplotlib.pyplot as plt

    rows = [r for r in report["summary"] if r["kind"] == "combination"]
    cases = []
    for r in rows:
        if not r["mainProfile"] and r["case"] not in cases:
            cases.append(r["case"])
    profiles = [p["name"] for p in report["parameters"]["profiles"]]
    panels = [("best time (s)", lambda r: (r.get("bestMs") or 0) / 1000),
              ("SomeService allocated (MiB, median; none = n/a)", lambda r: (figure(r.get("someService") or {}, "allocatedBytes") or 0) / MIB),
              ("SomeService peak working set (MiB, median)", lambda r: ((r.get("someService") or {}).get("peakWorkingSetBytes") or 0) / MIB),
              ("SomeService GC pause (ms, median)", lambda r: (r.get("someService") or {}).get("gcPauseMs") or 0),
              ("SomeService GC collections (median, all generations)",
               lambda r: sum((r.get("someService") or {}).get(g) or 0 for g in ("gcGen0", "gcGen1", "gcGen2")))]
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 2.2 * len(panels) + 0.6 * len(cases)))
    fig.suptitle(f"Runtime profiles — {report['parameters']['rows']:,} rows, {runs_of([r for r in rows if r['case'] in cases])}", fontsize=13)
    width = 0.8 / max(1, len(profiles))
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    for ax, (unit, pick) in zip(axes, panels):
        for k, profile in enumerate(profiles):
            vals = []
            for case in cases:
                row = next((r for r in rows if r["case"] == case and r.get("profile") == profile), None)
                vals.append(pick(row) if row else 0)
            ax.barh([i + (k - (len(profiles) - 1) / 2) * width for i in range(len(cases))], vals, height=width,
                    color=colors[k % len(colors)], label=profile)
        ax.set_yticks(list(range(len(cases))), [c.replace(":", " × ") for c in cases], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        ax.set_xlim(left=0)
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    save(fig, path, dpi=100)


def draw_links(report, path):
    """Per case, best time against the link's rate (log–log), with the link's own limit (bytes crossed ÷ rate) as the floor."""
    import math

    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    links = report["links"]
    shaped = [link for link in links if link.get("rateBitsPerSecond")]
    cases = [key for key in case_order(report)
             if any(r["case"] == key and r["mainProfile"] for link in links for r in link["cases"])]
    columns = min(3, max(1, len(cases)))
    rows_n = math.ceil(len(cases) / columns)
    fig, axes = plt.subplots(rows_n, columns, figsize=(6 * columns, 4 * rows_n), squeeze=False)
    fig.suptitle(f"Time against link rate — {report['parameters']['rows']:,} rows, {runs_of([r for link in links for r in link['cases'] if r['mainProfile']])}; "
                 "dashed: the link's floor (bytes crossed ÷ rate); dotted: loopback", fontsize=12)
    rates = sorted(link["rateBitsPerSecond"] for link in shaped)
    for ax, key in zip(axes.flat, cases):
        points, floors, title = [], [], key
        for link in shaped:
            row = next((r for r in link["cases"] if r["case"] == key and r["mainProfile"]), None)
            if not row:
                continue
            title = row["label"]
            rate = link["rateBitsPerSecond"]
            if row.get("bestMs"):
                points.append((rate / 1e6, row["bestMs"] / 1000))
            traffic = row.get("traffic")
            if traffic:
                busier = max(traffic["sourceToTargetBytes"], traffic["targetToSourceBytes"])
                floors.append((rate / 1e6, busier * 8 / rate))
        if points:
            ax.plot([x for x, _ in points], [y for _, y in points], marker="o", label="best time")
        if floors:
            ax.plot([x for x, _ in floors], [y for _, y in floors], linestyle="--", color="grey", marker=".", label="link floor")
        loopback = next((r for link in links if not link.get("rateBitsPerSecond") for r in link["cases"]
                         if r["case"] == key and r["mainProfile"] and r.get("bestMs")), None)
        if loopback:
            ax.axhline(loopback["bestMs"] / 1000, color="black", linestyle=":", label="loopback")
        ax.set_title(title, fontsize=9)
        ax.set_xscale("log")
        ax.set_yscale("log")
        # Labels at 1, 2 and 5 of each decade: the time and its floor are often within a decade or two.
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        if rates:
            ax.set_xticks([r / 1e6 for r in rates], [f"{r / 1e6:g}" for r in rates], fontsize=8)
            ax.minorticks_off()
        ax.set_xlabel("link rate (Mbit/s, log scale)")
        ax.set_ylabel("seconds (log scale)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(cases):]:
        ax.axis("off")
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    save(fig, path, dpi=DPI)


if __name__ == "__main__":
    sys.exit(main())
