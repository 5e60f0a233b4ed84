#!/usr/bin/env bash
# The lab's test suite: real PostgreSQL clusters, real Kestrel processes, real Prometheus/promtool/docker-compose.
# Installs missing Debian packages when run as root, builds Release, runs every xunit test.
set -euo pipefail
cd "$(dirname "$0")"
scripts/ensure-deps.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
dotnet test SyncDataBenchmark/SyncDataBenchmark.slnx -c Release "$@" 2>&1 | tee "$log" || status=$?
# One plain closing line, whatever the runner printed.
summary=$(grep -Eo 'Failed: +[0-9]+, Passed: +[0-9]+, Skipped: +[0-9]+' "$log" | tail -1 || true)
if [[ $summary =~ Failed:\ +([0-9]+),\ Passed:\ +([0-9]+),\ Skipped:\ +([0-9]+) ]]; then
  echo "tests: ${BASH_REMATCH[2]} passed, ${BASH_REMATCH[1]} failed, ${BASH_REMATCH[3]} skipped"
fi
exit $status
