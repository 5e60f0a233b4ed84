#!/usr/bin/env bash
# Stops what a killed test run or benchmark left behind: throwaway clusters (syncdata-pg-* in the temp directory or
# /dev/shm) and lab service processes whose owner process is gone. The owner is recorded by SyncData.Harness
# (LabSweeper) as "pid starttime": in the cluster's `owner` file and in each service's SYNCDATA_LAB_OWNER variable.
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
exit 0
