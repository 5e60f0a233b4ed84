"""Median and mean of every timed, verified run per side of scripts/scrape-cost.sh (OUT_DIR/N-with, N-without)."""
import json, pathlib, statistics, sys

out = pathlib.Path(sys.argv[1])
sides = {"with": [], "without": []}
alloc = {"with": [], "without": []}
for run_dir in sorted(p for p in out.iterdir() if p.is_dir() and "-" in p.name):
    side = run_dir.name.split("-", 1)[1]
    report = json.loads((run_dir / "results.json").read_text())
    timed = [r for r in report["runs"] if not r["warmup"] and r["ok"]]
    times = [r["result"]["durationMs"] for r in timed]
    sides[side] += times
    alloc[side] += [r["result"]["someService"]["allocatedBytes"] for r in timed if r["result"]["someService"].get("allocatedBytes")]
    print(f"{run_dir.name}: {len(times)} runs, median {statistics.median(times):,.0f} ms")
for side, times in sides.items():
    mib = statistics.median(alloc[side]) / 2**20 if alloc[side] else float("nan")
    print(f"{side}: {len(times)} runs, median {statistics.median(times):,.0f} ms, mean {statistics.mean(times):,.0f} ms, "
          f"sd {statistics.stdev(times):,.0f} ms; SomeService allocated (median) {mib:,.2f} MiB")
w, wo = sides["with"], sides["without"]
print(f"with ÷ without: median {statistics.median(w) / statistics.median(wo):.2f}×, mean {statistics.mean(w) / statistics.mean(wo):.2f}×")
