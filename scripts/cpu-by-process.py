#!/usr/bin/env python3
"""CPU seconds per process group while a command runs: where a run's time goes on this machine.

Usage: scripts/cpu-by-process.py [--interval 0.05] -- COMMAND [ARGS…]

Samples /proc every --interval seconds while COMMAND runs and prints, per group, the user + kernel CPU time spent
inside that window: PostgreSQL backends by database (their process title names it), PostgreSQL's own background
processes (checkpointer, WAL writer, …) by name, .NET services by their dll, everything else by its command name.
Processes that start and end between two samples are missed, so keep the interval short for short commands
(docs/where-the-time-goes.md says how the figures in the README were taken). Linux only; standard library only.
"""
import argparse
import os
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def group_of(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
        with open(f"/proc/{pid}/comm") as f:
            comm = f.read().strip()
    except OSError:
        return None
    if argv and argv[0].startswith("postgres:"):
        # "postgres: USER DATABASE HOST(PORT) STATE" for a backend, "postgres: checkpointer" for the rest.
        words = argv[0].split()
        if len(words) >= 4 and ("(" in words[3] or words[3] == "[local]"):
            return f"postgres backend ({words[2]})"
        return "postgres " + " ".join(words[1:3] if words[1:2] == ["logical"] else words[1:2])
    for arg in argv:
        if arg.endswith(".dll"):
            return os.path.basename(arg)[:-4]
    return comm


def cpu_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    except (OSError, IndexError, ValueError):
        return None


def snapshot(groups):
    ticks = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            pid = int(entry)
            value = cpu_ticks(pid)
            if value is not None:
                if pid not in groups:
                    groups[pid] = group_of(pid)
                ticks[pid] = value
    return ticks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    groups = {}
    first = snapshot(groups)
    last = dict(first)
    started = time.monotonic()
    child = subprocess.Popen(command)
    while child.poll() is None:
        time.sleep(args.interval)
        last.update(snapshot(groups))
    last.update(snapshot(groups))
    wall = time.monotonic() - started

    spent = {}
    for pid, ticks in last.items():
        # A process seen first after the start spent all its ticks inside the window.
        delta = ticks - first.get(pid, 0)
        if delta > 0 and groups.get(pid):
            spent[groups[pid]] = spent.get(groups[pid], 0) + delta
    print(f"wall {wall:.2f} s, exit {child.returncode}; CPU seconds by process group:", file=sys.stderr)
    for name, ticks in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {ticks / TICKS:8.2f}  {name}", file=sys.stderr)
    print(f"  {sum(spent.values()) / TICKS:8.2f}  total (of {wall * os.cpu_count():.2f} available)", file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
