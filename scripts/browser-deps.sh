#!/usr/bin/env bash
# The dashboard's browser test (SyncDataBenchmark.AppHost.Tests): puppeteer-core from the committed package.json and
# package-lock.json, installed with `npm ci` (scripts ignored: puppeteer-core downloads no browser; the test drives
# Debian's chromium, which scripts/ensure-deps.sh installs). Skipped when the lock file has not changed since.
set -euo pipefail
dir="$(cd "$(dirname "$0")/.." && pwd)/SyncDataBenchmark/SyncDataBenchmark.AppHost.Tests/Browser"
stamp="$dir/node_modules/.installed-lock.sha256"
want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
[[ -f $stamp && $(cat "$stamp") == "$want" ]] && exit 0
command -v npm >/dev/null 2>&1 || { echo "npm is required for the dashboard's browser test (Node.js 20 or later)." >&2; exit 1; }
echo "Installing the browser test's npm packages (npm ci in $dir)"
npm ci --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error
echo "$want" > "$stamp"
