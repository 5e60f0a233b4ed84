#!/usr/bin/env bash
# What Prometheus scraping both services every second costs a run (README, Observability, "What scraping costs").
# Debian's Prometheus is started once and left running; six runner invocations alternate with / without / without /
# with / with / without scraping ("with": a file_sd target file is filled in as soon as the runner's services listen;
# "without": it stays empty), so drift over the minutes falls on both sides. Each invocation: a warm-up and
# $REPEAT timed runs of $CASE at $ROWS rows. Prints the per-side median and mean over every timed, verified run.
#   scripts/scrape-cost.sh [OUT_DIR]        (ROWS, REPEAT, CASE override the defaults)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/scrape-cost}
rows=${ROWS:-1000000} repeat=${REPEAT:-5} case=${CASE:-NpgsqlCopy:NpgsqlCopy}
command -v prometheus >/dev/null || { echo "needs Debian's prometheus (apt-get install prometheus)" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out/targets"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
sed "s|@TARGETS@|$out/targets|g" prometheus/scrape-cost.yml > "$out/prometheus.yml"
: > "$out/targets/services.json"
prometheus --config.file="$out/prometheus.yml" --storage.tsdb.path="$out/tsdb" --web.listen-address="127.0.0.1:$port" \
  >"$out/prometheus.log" 2>&1 &
prometheus_pid=$!
watcher=
trap 'kill $prometheus_pid ${watcher:-} 2>/dev/null || true' EXIT
sleep 20 # let it settle: a starting Prometheus competes for the cores (README)

# Fills the target file with whatever the runner's services listen on, until killed.
watch_services() {
  while sleep 0.2; do
    local entries=()
    while read -r service url; do
      entries+=("{\"targets\":[\"${url#http://}\"],\"labels\":{\"job\":\"$service\"}}")
    done < <(pgrep -af -- '--urls http://127.0.0.1:' | sed -nE 's|.*/(SomeService\|SyncDataSource)\.dll --urls (http://[0-9.:]+).*|\1 \2|p')
    local joined; joined=$(IFS=,; echo "${entries[*]:-}")
    echo "[$joined]" > "$out/targets/services.json.tmp" && mv "$out/targets/services.json.tmp" "$out/targets/services.json"
  done
}

n=0
for side in with without without with with without; do
  n=$((n + 1))
  echo "[]" > "$out/targets/services.json"
  [[ $side == with ]] && { watch_services & watcher=$!; }
  ./bench.sh --rows "$rows" --repeat "$repeat" --no-peers --no-charts --profile default --cases "$case" --out "$out/$n-$side" \
    > "$out/$n-$side.log" 2>&1 || { echo "invocation $n ($side) failed: $out/$n-$side.log" >&2; exit 1; }
  [[ -n $watcher ]] && { kill "$watcher"; wait "$watcher" 2>/dev/null || true; watcher=; echo "[]" > "$out/targets/services.json"; }
  scrapes=$(curl -s "http://127.0.0.1:$port/api/v1/query" --data-urlencode 'query=sum by (job) (sum_over_time(up[1h]))' \
    | python3 -c 'import json,sys; print({r["metric"].get("job"): r["value"][1] for r in json.load(sys.stdin)["data"]["result"]})')
  echo "invocation $n ($side) done; successful scrapes so far: $scrapes"
done
python3 scripts/scrape-cost-summary.py "$out"
