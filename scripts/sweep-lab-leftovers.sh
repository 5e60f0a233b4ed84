#!/usr/bin/env bash
# Stops what a killed test run or benchmark left behind: throwaway clusters (syncdata-pg-* in the temp directory or
# /dev/shm) and lab service processes whose owner process is gone. The owner is recorded by SyncData.Harness
# (LabSweeper) as "pid starttime": in the cluster's `owner` file and in each service's SYNCDATA_LAB_OWNER variable.
# Two-host network labs (SyncData.Harness/Network/TwoHostLab) are named after their owner too: namespaces
# syncdata-PID-STARTTIME-N-src|tgt, and veth ends sdPID-N[st] while still in the root namespace.
# Labs of live owners (e.g. another user's test run) are left alone, and so are clusters without an owner file.
set -uo pipefail

alive() { # "pid starttime" → 0 if that very process still runs
  local pid=${1%% *} start=${1##* } stat
  stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ $(cut -d' ' -f20 <<<"$stat") == "$start" ]]
}

for dir in "${TMPDIR:-/tmp}"/syncdata-pg-* /dev/shm/syncdata-pg-*; do
  [[ -f $dir/owner ]] || continue
  alive "$(cat "$dir/owner")" && continue
  if [[ -f $dir/data/postmaster.pid ]]; then
    pid=$(head -1 "$dir/data/postmaster.pid")
    kill -QUIT "$pid" 2>/dev/null && for _ in $(seq 50); do [[ -d /proc/$pid ]] || break; sleep 0.1; done
  fi
  rm -rf "$dir" && echo "swept leftover cluster $dir"
done

for environ in /proc/[0-9]*/environ; do
  owner=$( { tr '\0' '\n' <"$environ"; } 2>/dev/null | sed -n 's/^SYNCDATA_LAB_OWNER=//p')
  [[ -n $owner ]] || continue
  alive "$owner" && continue
  pid=${environ#/proc/}; pid=${pid%/environ}
  kill -KILL "$pid" 2>/dev/null && echo "swept leftover lab service (pid $pid)"
done

# After the processes: a namespace goes once nothing of its dead owner runs in it (its veth end goes with it).
if command -v ip >/dev/null 2>&1; then
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^syncdata-[0-9]+-[0-9]+-[0-9]+-(src|tgt)$'); do
    IFS=- read -r _ pid start _ _ <<<"$ns"
    alive "$pid $start" && continue
    ip netns del "$ns" && echo "swept leftover network namespace $ns"
  done
  for dev in $(ip -o link show type veth 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E '^sd[0-9]+-[0-9]+[st]$'); do
    pid=${dev#sd}; pid=${pid%%-*}
    [[ -d /proc/$pid ]] && continue
    ip link del "$dev" && echo "swept leftover veth $dev"
  done
fi
exit 0
