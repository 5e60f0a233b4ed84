#!/usr/bin/env bash
# STANDS IN FOR `docker pull`. No registry can be pulled from on this lab's machines, so the images that
# docker-compose.debug.yml and SyncDataBenchmark/Dockerfile name are built here, locally, under the same names:
#   mcr.microsoft.com/dotnet/sdk:10.0     this machine's .NET SDK (checked to be 10.0.*) on Debian bookworm, trusting
#                                         this machine's CA bundle (its build stage restores from the NuGet registry)
#   mcr.microsoft.com/dotnet/aspnet:10.0  this machine's .NET and ASP.NET Core runtimes (10.0.*) on Debian bookworm
#   docker.io/library/postgres:15         Debian bookworm's PostgreSQL 15 (checked), with a minimal entrypoint of ours
# They are NOT the official images: each carries the label org.syncdatabenchmark.stand-in saying what it is. And one
# image under its own name, because Debian has no Prometheus 3 to stand in for prom/prometheus:v3.5.0:
#   localhost/syncdata-stand-in/prometheus:2.42   Debian bookworm's Prometheus 2.42 (the compose lab's override uses it)
# All start from `debootstrap --variant=minbase bookworm`, imported with `podman import`.
#
# Cached for re-runs: the debootstrap tarball in $SYNCDATA_CACHE (default ~/.cache/syncdatabenchmark), and the images
# in the lab's Podman storage (scripts/stand-in/podman.sh); an image is rebuilt only when its recipe (scripts/stand-in/*,
# the host's .NET and CA bundle) changed.
# Needs root, podman, runc and debootstrap (scripts/ensure-deps.sh installs them).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# debootstrap and the rootful Podman of the compose lab (ports, networks) need root.
[[ $(id -u) == 0 ]] || { echo "scripts/stand-in-images.sh needs root (debootstrap, rootful Podman)" >&2; exit 1; }
recipes=$here/stand-in
podman() { "$recipes/podman.sh" "$@"; }
cache=${SYNCDATA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/syncdatabenchmark}
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
label=org.syncdatabenchmark.stand-in
mkdir -p "$cache"

say() { echo "[stand-in-images] $*"; }

# The tags promise versions: refuse to build when the host's do not match them.
dotnet_version() { ls "$dotnet_root/$1" | sort -V | tail -1; }
sdk_version=$(dotnet_version sdk)
runtime_version=$(dotnet_version shared/Microsoft.AspNetCore.App)
[[ $sdk_version == 10.0.* && $runtime_version == 10.0.* ]] \
  || { echo "the host's .NET SDK $sdk_version / ASP.NET Core $runtime_version is not 10.0: it cannot stand in for the :10.0 images" >&2; exit 1; }

# The recipe of an image: its Containerfile, the files it copies, what it is built from.
recipe_hash() { cat "$@" | sha256sum | cut -c1-16; }
current_recipe() { podman image inspect --format "{{ index .Labels \"$label.recipe\" }}" "$1" 2>/dev/null || true; }

build() { # image containerfile recipe description [podman build options...]
  local image=$1 containerfile=$2 recipe=$3 description=$4
  shift 4
  if [[ $(current_recipe "$image") == "$recipe" ]]; then
    say "$image: up to date"
    return
  fi
  say "$image: building ($description)"
  podman build --quiet --no-cache --pull=never --file "$recipes/$containerfile" \
    --label "$label=$description; built by scripts/stand-in-images.sh, not the official image" \
    --label "$label.recipe=$recipe" "$@" --tag "$image" "$recipes" >/dev/null
}

rootfs_image=localhost/syncdata-stand-in/debian:bookworm-minbase-rootfs
if ! podman image exists "$rootfs_image"; then
  tarball=$cache/debian-bookworm-minbase.tar
  if [[ ! -s $tarball ]]; then
    say "debootstrap --variant=minbase bookworm (once; cached in $tarball)"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
      || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
    tar -C "$work/rootfs" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    rm -rf "$work"
    trap - EXIT
  fi
  say "podman import $tarball"
  podman import --quiet "$tarball" "$rootfs_image" >/dev/null
fi

base_recipe=$(recipe_hash "$recipes/base.Containerfile" <(podman image inspect --format '{{.Id}}' "$rootfs_image"))
build localhost/syncdata-stand-in/debian:bookworm base.Containerfile "$base_recipe" "Debian bookworm minbase"

host_dotnet=(--volume "$dotnet_root:/host-dotnet:ro")
ca_bundle=/etc/ssl/certs/ca-certificates.crt
build mcr.microsoft.com/dotnet/sdk:10.0 dotnet-sdk.Containerfile \
  "$(recipe_hash "$recipes/dotnet-sdk.Containerfile" "$ca_bundle" <(echo "$base_recipe $sdk_version $runtime_version"))" \
  "the host's .NET SDK $sdk_version on Debian bookworm" "${host_dotnet[@]}" --volume "$ca_bundle:/host-ca-bundle:ro"
build mcr.microsoft.com/dotnet/aspnet:10.0 dotnet-aspnet.Containerfile \
  "$(recipe_hash "$recipes/dotnet-aspnet.Containerfile" <(echo "$base_recipe $runtime_version"))" \
  "the host's ASP.NET Core $runtime_version runtime on Debian bookworm" "${host_dotnet[@]}"
build docker.io/library/postgres:15 postgres.Containerfile \
  "$(recipe_hash "$recipes/postgres.Containerfile" "$recipes/postgres-entrypoint.sh" <(echo "$base_recipe"))" \
  "Debian bookworm's PostgreSQL 15"
build localhost/syncdata-stand-in/prometheus:2.42 prometheus.Containerfile \
  "$(recipe_hash "$recipes/prometheus.Containerfile" <(echo "$base_recipe"))" \
  "Debian bookworm's Prometheus 2.42 (not prom/prometheus:v3.5.0)"

# What is inside must be what the tags say.
postgres_version=$(podman run --rm --entrypoint postgres docker.io/library/postgres:15 --version)
[[ $postgres_version =~ \ 15\. ]] || { echo "docker.io/library/postgres:15 holds $postgres_version" >&2; exit 1; }
prometheus_version=$(podman run --rm localhost/syncdata-stand-in/prometheus:2.42 --version 2>&1 | head -1)
[[ $prometheus_version =~ version\ 2\.42\. ]] || { echo "localhost/syncdata-stand-in/prometheus:2.42 holds $prometheus_version" >&2; exit 1; }
say "ready: .NET SDK $sdk_version, ASP.NET Core $runtime_version, $postgres_version, $prometheus_version"
