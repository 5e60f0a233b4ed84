#!/usr/bin/env python3
"""Where a target backend's COPY FROM spent its time: running, sleeping (waiting for data) or waiting for a core.

Record the scheduler around one run, with statement logging on the target's server (log_min_duration_statement=0,
log_line_prefix='%m [%p] %d '):

    perf sched record -o /tmp/sched.data -- <one case run or one pipe run>
    scripts/copy-wait.py /tmp/sched.data --pid <backend pid> --log <server log> [--all]

The COPY's window comes from the log line of the backend's last COPY … FROM STDIN (its end and duration); perf's
timestamps are the kernel's monotonic clock, mapped to wall time by this machine's current offset between the two.
With --all, every task's run, runqueue delay and sleep in that window, busiest first (docs/where-the-time-goes.md).
"""
import argparse
import collections
import datetime
import re
import subprocess
import time


def copy_window(log_path, pid):
    pattern = re.compile(r"(\S+ \S+) UTC \[" + str(pid) + r"\] \S+ LOG:  duration: ([\d.]+) ms  statement: COPY .* FROM STDIN")
    last = None
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            match = pattern.match(line)
            if match:
                last = match
    if last is None:
        raise SystemExit(f"no COPY … FROM STDIN of backend {pid} in {log_path} (is log_min_duration_statement 0?)")
    end = datetime.datetime.strptime(last.group(1), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()
    seconds = float(last.group(2)) / 1000
    offset = time.time() - time.clock_gettime(time.CLOCK_MONOTONIC)
    return end - seconds - offset, end - offset, seconds


def switches(data):
    """(time, task, pid, sleep ms, runqueue delay ms, run ms) per switch-out, from perf sched timehist."""
    out = subprocess.run(["perf", "sched", "timehist", "-i", data], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines()[3:]:
        parts = line.split()
        try:
            stamp, sleep, delay, run = float(parts[0]), float(parts[-3]), float(parts[-2]), float(parts[-1])
        except (ValueError, IndexError):
            continue
        task = " ".join(parts[2:-3])
        found = re.search(r"\[(\d+)(?:/\d+)?\]$", task)
        yield stamp, task, int(found.group(1)) if found else -1, sleep, delay, run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="perf sched record's output")
    parser.add_argument("--pid", type=int, required=True, help="the target backend's pid")
    parser.add_argument("--log", required=True, help="the target server's log")
    parser.add_argument("--all", action="store_true", help="every task in the COPY's window, busiest first")
    args = parser.parse_args()

    start, end, seconds = copy_window(args.log, args.pid)
    totals = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    backend = [0.0, 0.0, 0.0, 0]
    for stamp, task, pid, sleep, delay, run in switches(args.data):
        if start <= stamp <= end:
            for total in (totals[task], backend) if pid == args.pid else (totals[task],):
                total[0] += run
                total[1] += delay
                total[2] += sleep
                total[3] += 1

    run, delay, sleep, count = backend
    print(f"COPY {seconds * 1000:.0f} ms: backend {args.pid} ran {run:.0f} ms, slept {sleep:.0f} ms (waiting for data), "
          f"waited {delay:.0f} ms for a core, {count} switches")
    if args.all:
        for task, (run, delay, sleep, count) in sorted(totals.items(), key=lambda kv: -kv[1][0])[:20]:
            print(f"  {task:44s} run {run:7.1f}  runqueue {delay:6.1f}  sleep {sleep:7.1f}  switches {count}")


if __name__ == "__main__":
    main()
