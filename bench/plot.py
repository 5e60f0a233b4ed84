#!/usr/bin/env python3
"""Draws the benchmark's pictures from results.json with matplotlib (Debian: python3-matplotlib).

    plot.py RESULTS_JSON [--out DIR]   writes N.png per combination and summary.png
    plot.py --version                  prints matplotlib's version (the runner's pre-flight check)

N.png shows the run the summary row names (the best successful one): both services' working set, allocation
rate and GC collections over the run's time, from the samples SomeService recorded (one point per <= 50 ms).
"""
import argparse
import json
import os
import sys

MIB = 1024 * 1024
# Every full run commits its pictures; 72 dpi keeps them readable and the repository growth per run small.
DPI = 72
# GC.GetTotalAllocatedBytes(precise: false) lags by up to an allocation context per thread, so a rate over one
# 50 ms step shows spikes that are bookkeeping, not allocation; over a quarter second they average out.
RATE_WINDOW_MS = 250
SERVICES = (("someService", "SomeService", "tab:blue"), ("syncDataSource", "SyncDataSource", "tab:orange"))
GENERATIONS = (("gen0", "-"), ("gen1", "--"), ("gen2", ":"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", help="results.json written by the runner")
    parser.add_argument("--out", help="output directory (default: next to results.json)")
    parser.add_argument("--version", action="store_true", help="print matplotlib's version and exit")
    args = parser.parse_args()

    import matplotlib  # imported here so --version fails the same way a real run would

    matplotlib.use("Agg")
    if args.version:
        print(f"matplotlib {matplotlib.__version__}")
        return 0
    if not args.results:
        parser.error("results.json is required")

    with open(args.results, encoding="utf-8") as f:
        report = json.load(f)
    out = args.out or os.path.dirname(os.path.abspath(args.results))
    os.makedirs(out, exist_ok=True)

    runs = {r["result"]["id"]: r for r in report["runs"] if r.get("result")}
    repeat = report["parameters"]["repeat"]
    for row in report["summary"]:
        if row["kind"] != "combination":
            continue
        run = runs.get(row.get("pictureRunId"))
        draw_case(row, run, repeat, os.path.join(out, row["picture"]))
    draw_summary(report, os.path.join(out, "summary.png"))
    if any(r["kind"] == "combination" and not r.get("mainProfile", True) for r in report["summary"]):
        draw_profiles(report, os.path.join(out, "profiles.png"))
    return 0


def series(figures):
    """Seconds, working set (MiB), allocation rate (MiB/s) and exclusive GC counts since the window opened."""
    samples = (figures or {}).get("samples") or []
    if not samples:
        return None
    t = [s["elapsedMs"] / 1000 for s in samples]
    ws = [s["workingSetBytes"] / MIB for s in samples]
    rate = []
    start = 0
    for b in samples:
        while start < len(samples) - 1 and b["elapsedMs"] - samples[start + 1]["elapsedMs"] >= RATE_WINDOW_MS:
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


def draw_case(row, run, repeat, path):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(11, 9), sharex=True)
    title = f"#{row['number']} {row['fetch']} × {row['insert']} [{row.get('profile', 'default')}]"
    result = (run or {}).get("result")
    if result is None:
        fig.suptitle(f"{title}: no run with samples", fontsize=13)
        for ax in axes:
            ax.text(0.5, 0.5, "no samples: every run failed before measuring", ha="center", va="center", transform=ax.transAxes)
        fig.savefig(path, dpi=DPI)
        plt.close(fig)
        return

    state = "verified" if result.get("verified") else f"{result.get('status')}, not verified"
    duration = result.get("durationMs")
    best = f"best of {repeat}: {duration:,.0f} ms" if duration is not None and row.get("bestMs") else "no successful run: last attempt"
    fig.suptitle(f"{title} — {best}, {result.get('rows', 0):,} rows, {state}", fontsize=13)
    for key, name, color in SERVICES:
        data = series(result.get(key))
        if data is None:
            continue
        t, ws, rate, gcs = data
        axes[0].plot(t, ws, color=color, label=name)
        if (result.get(key) or {}).get("allocatedBytes") is None:
            # Under DATAS with a heap-count change the counter jumps (dotnet/runtime#131069): no rate can be drawn.
            axes[1].plot([], [], color=color, label=f"{name}: n/a (DATAS changed the heap count)")
        else:
            axes[1].plot(t, rate, color=color, label=name, linewidth=0.9)
        for (gen, style), counts in zip(GENERATIONS, gcs):
            axes[2].step(t, counts, where="post", color=color, linestyle=style, label=f"{name} {gen}")

    axes[0].set_ylabel("working set (MiB)")
    axes[1].set_ylabel(f"allocation rate (MiB/s,\nover {RATE_WINDOW_MS} ms)")
    axes[2].set_ylabel("GC collections\n(cumulative, exclusive)")
    axes[2].set_xlabel("seconds since the run started")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", fontsize=8, ncol=2)
        ax.set_ylim(bottom=0)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def draw_summary(report, path):
    import matplotlib.pyplot as plt

    # The headline: the main profile's rows (the others are in profiles.png).
    rows = [r for r in report["summary"] if r.get("mainProfile", True)]
    timed = [r for r in rows if r["kind"] in ("combination", "peer")]
    blocked = [r for r in rows if r["kind"] == "blocked"]
    combos = [r for r in rows if r["kind"] == "combination" and r.get("someService")]

    def label(r):
        return f"#{r['number']} {r['fetch']} × {r['insert']}" if r["kind"] == "combination" else f"peer: {r['title']}"

    height = max(4, 0.38 * (len(timed) + len(blocked)) + 1.5) + max(3, 0.5 * len(combos) + 1.5) * 2
    fig, (ax_time, ax_alloc, ax_ws) = plt.subplots(
        3, 1, figsize=(12, height),
        gridspec_kw={"height_ratios": [len(timed) + len(blocked) + 1, len(combos) + 1, len(combos) + 1]})
    fig.suptitle(f"{report['parameters']['rows']:,} rows — best of {report['parameters']['repeat']}"
                 + (" — tmpfs" if report["parameters"]["tmpfs"] else ""), fontsize=13)

    order = sorted(timed, key=lambda r: (r.get("bestMs") is None, r.get("bestMs") or 0))
    # Blocked pairs keep their TestCase number (older results.json files have none).
    labels = [label(r) for r in order] + [(f"#{r['number']} " if r.get("number") else "") + f"{r['fetch']} × {r['insert']}" for r in blocked]
    values = [(r.get("bestMs") or 0) / 1000 for r in order] + [0] * len(blocked)
    colors = ["tab:green" if r["kind"] == "peer" else "tab:blue" for r in order] + ["lightgrey"] * len(blocked)
    y = range(len(labels))
    ax_time.barh(y, values, color=colors)
    positive = [v for v in values if v > 0]
    smallest = min(positive) if positive else 1
    for i, r in enumerate(order):
        text = f"{r['bestMs']:,.0f} ms" if r.get("bestMs") is not None else "no successful run"
        ax_time.text(max(values[i], smallest), i, " " + text, va="center", fontsize=8)
    for j, r in enumerate(blocked):
        ax_time.text(smallest, len(order) + j, " blocked: package not restorable here", va="center", fontsize=8, color="grey")
    ax_time.set_yticks(list(y), labels, fontsize=8)
    ax_time.invert_yaxis()
    if positive:
        ax_time.set_xscale("log")
        ax_time.set_xlim(left=smallest / 2, right=max(positive) * 4)
    psql = next((r for r in timed if r["case"] == "psql-binary" and r.get("bestMs")), None)
    if psql:
        # The physical limit: one stream, no parsing; everything right of this line is overhead.
        ax_time.axvline(psql["bestMs"] / 1000, color="tab:green", linestyle="--", alpha=0.6)
    ax_time.set_xlabel("process time, best run (s, log scale); green = peers, dashed = psql binary pipe")
    ax_time.grid(True, axis="x", alpha=0.3)

    combos = sorted(combos, key=lambda r: r["number"])
    names = [label(r) for r in combos]
    width = 0.4
    for ax, field, unit in ((ax_alloc, "allocatedBytes", "allocated per run (MiB, median)"),
                            (ax_ws, "peakWorkingSetBytes", "peak working set (MiB, median)")):
        for k, (key, name, color) in enumerate(SERVICES):
            # An unavailable allocation figure (DATAS) draws no bar, never a zero one that reads as a measurement.
            vals = [((r.get(key) or {}).get(field) or 0) / MIB for r in combos]
            ax.barh([i + (k - 0.5) * width for i in range(len(combos))], vals, height=width, color=color, label=name)
        ax.set_yticks(list(range(len(combos))), names, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        ax.legend(fontsize=8, loc="lower right")
        ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def draw_profiles(report, path):
    """The profile cases side by side: best time, and per service peak working set, GC pause and collections."""
    import matplotlib.pyplot as plt

    rows = [r for r in report["summary"] if r["kind"] == "combination"]
    cases = []
    for r in rows:
        if not r.get("mainProfile", True) and r["case"] not in cases:
            cases.append(r["case"])
    profiles = [p["name"] for p in report["parameters"].get("profiles", [])] or sorted({r.get("profile") for r in rows})
    panels = [("best time (s)", lambda r: (r.get("bestMs") or 0) / 1000),
              ("SomeService allocated (MiB, median; none = n/a under DATAS)", lambda r: ((r.get("someService") or {}).get("allocatedBytes") or 0) / MIB),
              ("SomeService peak working set (MiB, median)", lambda r: ((r.get("someService") or {}).get("peakWorkingSetBytes") or 0) / MIB),
              ("SomeService GC pause (ms, median)", lambda r: (r.get("someService") or {}).get("gcPauseMs") or 0),
              ("SomeService GC collections (median, all generations)",
               lambda r: sum((r.get("someService") or {}).get(g) or 0 for g in ("gcGen0", "gcGen1", "gcGen2")))]
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 2.2 * len(panels) + 0.6 * len(cases)))
    fig.suptitle(f"Runtime profiles — {report['parameters']['rows']:,} rows, best of {report['parameters']['repeat']}", fontsize=13)
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
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
