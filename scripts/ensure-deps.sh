#!/usr/bin/env bash
# Installs the Debian packages the chosen work needs, by group, when missing and we are root; otherwise says which to
# install. Exit 1 only when something is missing and could not be installed.
#   scripts/ensure-deps.sh [GROUP...]          no group: every group (what .ci/run's ./test.sh needs)
#   scripts/ensure-deps.sh --list [GROUP...]   each group's packages, installed or not, one "group package" a line
# Groups (docs/running.md lists them): postgres (the lab's own clusters, psql, pgbench), peers (pgcopydb), charts
# (matplotlib), network (ip and tc: --link), prometheus (the Lab tier's scrape and config tests), engine (the Engine
# tier's compose lab), browser (the AppHost's dashboard seen in Debian's chromium: Node.js, npm and an npm ci).
# bench.sh asks for what its options need (scripts/bench-deps.sh), test.sh for its tiers'.
set -euo pipefail

all=(postgres peers charts network prometheus engine browser)

# "package check" per group: the package is needed when its check fails.
packages() {
  case $1 in
    postgres)
      echo "postgresql [[ -n \${PG_BIN:-} ]] || ls /usr/lib/postgresql/*/bin/initdb"
      echo "postgresql-client command -v psql && command -v pgbench" ;;
    peers) echo "pgcopydb command -v pgcopydb" ;;
    # Debian's matplotlib lives in /usr/bin/python3, whatever python3 comes first on PATH (pyenv, venv).
    charts) echo "python3-matplotlib /usr/bin/python3 -c 'import matplotlib'" ;;
    network) echo "iproute2 command -v ip && command -v tc" ;;
    prometheus)
      echo "prometheus command -v prometheus && command -v promtool"
      echo "docker-compose command -v docker-compose" ;;
    # The compose lab (ComposeEngineTests): Podman with runc (Debian's crun fails on these machines), netavark and
    # aardvark-dns (a compose network whose containers reach each other by name; Podman's CNI fallback has no DNS here),
    # iptables (published ports), debootstrap (scripts/stand-in-images.sh).
    engine)
      echo "podman command -v podman"
      echo "runc command -v runc"
      echo "netavark [[ -x /usr/lib/podman/netavark ]]"
      echo "aardvark-dns [[ -x /usr/lib/podman/aardvark-dns ]]"
      echo "iptables command -v iptables"
      echo "debootstrap command -v debootstrap" ;;
    # puppeteer-core drives Debian's chromium (scripts/browser-deps.sh: npm ci, below).
    browser)
      echo "chromium command -v chromium"
      echo "nodejs command -v node"
      echo "npm command -v npm" ;;
    *) echo "ensure-deps: '$1' is not a group; groups: ${all[*]}" >&2; return 1 ;;
  esac
}

list=false
if [[ ${1:-} == --list ]]; then list=true; shift; fi
groups=("$@")
(( ${#groups[@]} )) || groups=("${all[@]}")

need=()
for group in "${groups[@]}"; do
  lines=$(packages "$group")
  while read -r package check; do
    if $list; then echo "$group $package"; continue; fi
    bash -c "$check" >/dev/null 2>&1 || need+=("$package")
  done <<< "$lines"
done
$list && exit 0

here=$(dirname "$0")
browser_deps() { [[ " ${groups[*]} " != *" browser "* ]] || "$here/browser-deps.sh"; }
(( ${#need[@]} )) || { browser_deps; exit 0; }

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
browser_deps
