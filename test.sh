#!/usr/bin/env bash
# The lab's test suite in three tiers (--tier below): Fast (no processes, no database), Lab (services hosted in process
# over a real PostgreSQL, and labs of real PostgreSQL clusters, real Kestrel processes, real Prometheus/promtool), and
# Engine (Podman's compose lab, shaped links, whole benchmark runs), two collections at a time (TestSetup.cs). Installs missing Debian packages when run as root, builds
# Release (scripts/lab-build.sh), sweeps what a killed earlier run left behind, runs every xunit test printing each
# result as it finishes.
set -euo pipefail
cd "$(dirname "$0")"
started=$SECONDS
# --tier fast,lab,engine (any of them; default all): the suite's tiers (TierTests), as an xunit trait filter. Fast has
# no process and no database; Lab starts PostgreSQL clusters and the services; Engine brings up Podman, shaped links and
# whole runs of the benchmark command. A developer's loop: ./test.sh --tier fast,lab. Every other argument goes to dotnet test.
args=()
while (( $# )); do
  case $1 in
    --tier) tiers=${2:?--tier takes fast, lab, engine, comma-separated}; shift ;;
    --tier=*) tiers=${1#--tier=} ;;
    *) args+=("$1") ;;
  esac
  shift
done
# Each tier's package groups (scripts/ensure-deps.sh): Fast none; Lab the clusters, the peers, the pictures and
# Prometheus; Engine every group (Podman, the network tools, the dashboard's browser). No --tier: every group.
deps=()
if [[ -n ${tiers:-} ]]; then
  filter=
  for tier in ${tiers//,/ }; do
    case ${tier,,} in
      fast) name=Fast ;; lab) name=Lab; deps+=(postgres peers charts prometheus) ;; engine) name=Engine; deps+=(postgres peers charts network prometheus engine browser) ;;
      *) echo "--tier: '$tier' is not a tier; tiers: fast, lab, engine" >&2; exit 1 ;;
    esac
    filter+="${filter:+|}Tier=$name"
  done
  (( ${#deps[@]} )) || deps=(none)
  [[ " ${args[*]} " != *" --filter "* ]] || { echo "--tier and --filter cannot be combined: give one" >&2; exit 1; }
  args+=(--filter "$filter")
fi
set -- "${args[@]}"
# Progress from the first second: each step says what it does, and a heartbeat covers the quiet stretches (the
# build, a lab's PostgreSQL and services starting) with the time so far and the tests finished.
echo "[0s] Checking Debian packages…"
if [[ ${deps[*]-} != none ]]; then
  mapfile -t deps < <(printf '%s\n' "${deps[@]}" | awk 'NF && !seen[$0]++')
  scripts/ensure-deps.sh "${deps[@]}"
fi
scripts/sweep-lab-leftovers.sh
log=$(mktemp)
heartbeat=
trap 'rm -f "$log"; [[ -n $heartbeat ]] && kill "$heartbeat" 2>/dev/null || true' EXIT
source scripts/lab-build.sh
echo "[$((SECONDS - started))s] Building $LAB_CONFIGURATION…"
lab_build SyncDataBenchmark/SyncDataBenchmark.slnx
echo "[$((SECONDS - started))s] Built. Running the tests (each result is printed as it finishes; labs start PostgreSQL and the services first)…"
( while sleep 30; do
    echo "[$((SECONDS - started))s] … still running; $(grep -cE '^ *(Passed|Failed|Skipped) ' "$log" || true) tests finished so far"
  done ) &
heartbeat=$!
status=0
# -m:1: the test projects one after the other (dotnet test runs them side by side otherwise), so the AppHost's six
# processes never share the two cores with a lab.
# --blame-hang-timeout: a test still running after 15 minutes (the longest takes about 6) has hung; the test host is
# stopped and the hung test named, rather than CI running out of time with only a count of tests finished.
dotnet test SyncDataBenchmark/SyncDataBenchmark.slnx -c "$LAB_CONFIGURATION" --no-build -m:1 --logger "console;verbosity=normal" \
  --blame-hang-timeout 15m --blame-hang-dump-type none "$@" 2>&1 | tee "$log" || status=$?
kill "$heartbeat" 2>/dev/null || true
heartbeat=
echo "[$((SECONDS - started))s] Done."
# One plain closing line, whatever the runner printed: "Failed: N, Passed: N, Skipped: N" (minimal console output) or,
# with each test's result printed, one count per line after "Total tests: N".
# Each test project (the lab's, the AppHost's) prints its own counts: the line adds them up.
count() { grep -E "^ *$1: *[0-9]+ *\$" "$log" | grep -Eo '[0-9]+' | awk '{ n += $1 } END { print n + 0 }'; }
summary=$(grep -Eo 'Failed: +[0-9]+, Passed: +[0-9]+, Skipped: +[0-9]+' "$log" \
  | awk -F'[^0-9]+' '{ f += $2; p += $3; s += $4 } END { if (NR) printf "Failed: %d, Passed: %d, Skipped: %d", f, p, s }' || true)
if [[ $summary =~ Failed:\ +([0-9]+),\ Passed:\ +([0-9]+),\ Skipped:\ +([0-9]+) ]]; then
  echo "tests: ${BASH_REMATCH[2]} passed, ${BASH_REMATCH[1]} failed, ${BASH_REMATCH[3]} skipped"
elif grep -qE '^Total tests: *[0-9]+' "$log"; then
  echo "tests: $(count Passed) passed, $(count Failed) failed, $(count Skipped) skipped"
fi
# CI shows only the output's tail: repeat each failed test there with its message (not its stack trace).
if grep -qE '^ *Failed [A-Za-z]' "$log"; then
  echo "failed tests:"
  awk '/^ *Failed [A-Za-z]/ { show = 1; lines = 0 } /^ *Stack Trace:/ { show = 0 }
       show && lines++ < 15 { print }' "$log"
fi
exit $status
