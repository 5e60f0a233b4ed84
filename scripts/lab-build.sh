# Sourced by bench.sh and test.sh: the one place the build configuration is named (the target framework is named only
# in SyncDataBenchmark/Directory.Build.props; the harness finds the services in the configuration it was built in).
# shellcheck shell=bash
LAB_CONFIGURATION=Release

# lab_build PROJECT_OR_SOLUTION: builds quietly in LAB_CONFIGURATION; the build's chatter only matters when it fails,
# and then it is printed and the calling script exits 2.
lab_build() {
  local build_log
  build_log=$(mktemp)
  if ! dotnet build "$1" -c "$LAB_CONFIGURATION" -nologo >"$build_log" 2>&1; then
    cat "$build_log" >&2
    rm -f "$build_log"
    exit 2
  fi
  rm -f "$build_log"
}
