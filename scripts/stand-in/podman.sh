#!/usr/bin/env bash
# Podman as the compose lab runs it (scripts/stand-in-images.sh, ComposeEngineTests): `scripts/stand-in/podman.sh <podman
# arguments>`. Its own settings (containers.conf beside this file) and its own storage, under $SYNCDATA_CACHE (default
# ~/.cache/syncdatabenchmark/podman): the stand-in images stay there between runs, and nothing of the lab mixes with
# other users of Podman on the machine, nor theirs with it. The run root (locks, aardvark-dns) is under /run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${SYNCDATA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/syncdatabenchmark}
storage_conf=$cache/podman/storage.conf
mkdir -p "$cache/podman/storage"
if [[ ! -s $storage_conf ]]; then
  printf '[storage]\ndriver = "overlay"\ngraphroot = "%s"\nrunroot = "%s"\n' \
    "$cache/podman/storage" /run/syncdatabenchmark-podman > "$storage_conf.partial"
  mv "$storage_conf.partial" "$storage_conf"
fi
export CONTAINERS_CONF=$here/containers.conf CONTAINERS_STORAGE_CONF=$storage_conf
exec podman "$@"
