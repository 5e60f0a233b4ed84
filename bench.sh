#!/usr/bin/env bash
# One command for the whole benchmark: installs the Debian packages it needs (as root), builds Release
# (scripts/lab-build.sh), runs the runner. Every option goes to the runner: ./bench.sh --help lists them.
set -euo pipefail
cd "$(dirname "$0")"

# Only what these options need (scripts/bench-deps.sh: --help nothing, a copy run PostgreSQL, pgcopydb for the peers,
# matplotlib for the pictures). Missing tools are reported by the runner itself (--no-peers / --no-charts skip those parts).
mapfile -t deps < <(scripts/bench-deps.sh "$@")
(( ${#deps[@]} == 0 )) || scripts/ensure-deps.sh "${deps[@]}" || echo "Continuing without them: the runner reports what cannot work." >&2

source scripts/lab-build.sh
# Every option is declared once, in the runner, so even --help waits for this build: say so, and for how long.
echo "Building $LAB_CONFIGURATION first: the runner reads every option, --help too (about a minute the first time, seconds once built)…"
build_started=$SECONDS
runner_project=SyncDataBenchmark/SyncDataBenchmark.Runner/SyncDataBenchmark.Runner.csproj
lab_build "$runner_project"
echo "Built in $((SECONDS - build_started)) s."
# Where the build put the runner, asked of MSBuild: the target framework is written only in Directory.Build.props.
runner=$(dotnet msbuild "$runner_project" -nologo -p:Configuration="$LAB_CONFIGURATION" -getProperty:TargetPath)
exec dotnet "$runner" "$@"
