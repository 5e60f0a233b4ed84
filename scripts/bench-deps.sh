#!/usr/bin/env bash
# The package groups of scripts/ensure-deps.sh that a bench.sh invocation needs, from its arguments, one a line:
# --help needs nothing beyond the build; a copy run the lab's PostgreSQL, pgcopydb when the peers run and matplotlib
# when the pictures are drawn; --link the network tools; --follow PostgreSQL alone (pgbench comes with it).
#   scripts/bench-deps.sh [bench.sh arguments...]
set -euo pipefail
has() { local a; for a in "${args[@]}"; do [[ $a == "$1" || $a == "$1="* ]] && return 0; done; return 1; }
args=("$@")
if has --help || has -h || has -? || has --version || { has --readme && ! has --report-from; }; then
  exit 0
fi
if has --report-from; then
  has --no-charts || echo charts
  exit 0
fi
echo postgres
has --no-peers || has --follow || has --source-connection || echo peers
has --no-charts || has --follow || echo charts
! has --link || echo network
