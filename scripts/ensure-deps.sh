#!/usr/bin/env bash
# Installs the Debian packages the lab needs (bench.sh and test.sh both call this) when they are missing and we are
# root; otherwise says which to install. Exit 1 only when something is missing and could not be installed.
set -euo pipefail

need=()
if [[ -z "${PG_BIN:-}" ]] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then need+=(postgresql); fi
command -v psql >/dev/null 2>&1 || need+=(postgresql-client)
command -v pgcopydb >/dev/null 2>&1 || need+=(pgcopydb)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
# ip and tc build the two-host network lab (bench.sh --link).
{ command -v ip && command -v tc; } >/dev/null 2>&1 || need+=(iproute2)
{ command -v prometheus && command -v promtool; } >/dev/null 2>&1 || need+=(prometheus)
# The compose lab (ComposeEngineTests): Podman with runc (Debian's crun fails on these machines), netavark and
# aardvark-dns (a compose network whose containers reach each other by name; Podman's CNI fallback has no DNS here),
# iptables (published ports), debootstrap (scripts/stand-in-images.sh).
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
[[ -x /usr/lib/podman/netavark ]] || need+=(netavark)
[[ -x /usr/lib/podman/aardvark-dns ]] || need+=(aardvark-dns)
command -v iptables >/dev/null 2>&1 || need+=(iptables)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
# Debian's matplotlib lives in /usr/bin/python3, whatever python3 comes first on PATH (pyenv, venv).
/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || need+=(python3-matplotlib)
# The Aspire dashboard seen in a real browser (SyncDataBenchmark.AppHost.Tests): Debian's chromium, driven by
# puppeteer-core (scripts/browser-deps.sh, below), which needs Node.js and npm.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
here=$(dirname "$0")
(( ${#need[@]} )) || exec "$here/browser-deps.sh"

if [[ $(id -u) != 0 ]]; then
  echo "Missing Debian packages: ${need[*]}. Install them with: sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
  exit 1
fi
echo "Installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
# The lab starts its own throwaway PostgreSQL and Prometheus: keep the packages' services from starting.
if [[ ! -e /usr/sbin/policy-rc.d ]]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
log=$(mktemp)
# Another install may hold the dpkg lock for a while: wait for it rather than fail.
if ! { apt-get -o DPkg::Lock::Timeout=600 update -qq \
       && apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "Could not install ${need[*]}." >&2
  exit 1
fi
rm -f "$log"
"$here/browser-deps.sh"
