#!/usr/bin/env bash
# One command for the whole benchmark: installs the Debian packages it needs (as root), builds Release, runs the
# runner. Every option goes to the runner: ./bench.sh --help lists them.
set -euo pipefail
cd "$(dirname "$0")"

peers=1 charts=1 local_server=1
for arg in "$@"; do
  case "$arg" in
    --no-peers) peers=0 ;;
    --no-charts) charts=0 ;;
    --connection|--connection=*) local_server=0 ;;
    -h|--help|-\?) peers=0 charts=0 local_server=0 ;;
  esac
done

missing=()
if [[ $local_server == 1 ]] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [[ -z "${PG_BIN:-}" ]]; then
  missing+=(postgresql)
fi
command -v psql >/dev/null || missing+=(postgresql-client)
if [[ $peers == 1 ]]; then command -v pgcopydb >/dev/null || missing+=(pgcopydb); fi
# Debian's matplotlib lives in /usr/bin/python3, whatever python3 comes first on PATH (pyenv, venv).
if [[ $charts == 1 ]] && ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then missing+=(python3-matplotlib); fi

if (( ${#missing[@]} )); then
  if [[ $(id -u) == 0 ]]; then
    echo "Installing ${missing[*]}…"
    # Other builds on the machine may hold the dpkg lock for a while: wait for it rather than fail.
    apt_log=$(mktemp)
    if ! { apt-get -o DPkg::Lock::Timeout=600 update \
           && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"; } >"$apt_log" 2>&1; then
      cat "$apt_log" >&2
      echo "Could not install ${missing[*]}; the runner will report what cannot work." >&2
    fi
    rm -f "$apt_log"
  else
    echo "Missing Debian packages: ${missing[*]} (run as root to install them, or: sudo apt-get install ${missing[*]})." >&2
    echo "Continuing: the runner reports what cannot work (--no-peers / --no-charts skip those parts)." >&2
  fi
fi

echo "Building Release…"
# The build's chatter only matters when it fails.
build_log=$(mktemp)
if ! dotnet build SyncDataBenchmark/SyncDataBenchmark.Runner/SyncDataBenchmark.Runner.csproj -c Release -nologo >"$build_log" 2>&1; then
  cat "$build_log" >&2
  rm -f "$build_log"
  exit 2
fi
rm -f "$build_log"
exec dotnet SyncDataBenchmark/SyncDataBenchmark.Runner/bin/Release/net10.0/SyncDataBenchmark.Runner.dll "$@"
