#!/usr/bin/env bash
# Entrypoint of the stand-in postgres:15 image (postgres.Containerfile; built by scripts/stand-in-images.sh because no
# registry can be pulled from here). It does what docker-compose.debug.yml relies on from the official image's entrypoint,
# and nothing more: on an empty PGDATA, initdb with POSTGRES_USER/POSTGRES_PASSWORD (password auth over TCP), then the
# /docker-entrypoint-initdb.d scripts against a temporary server listening on the Unix socket only, then the real server
# on every interface.
set -Eeuo pipefail

: "${PGDATA:=/var/lib/postgresql/data}"
: "${POSTGRES_USER:=postgres}"

if [[ $(id -u) == 0 ]]; then
  # A fresh named volume may arrive owned by root.
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [[ ${1:-} != postgres ]]; then
  exec "$@"
fi

if [[ ! -s $PGDATA/PG_VERSION ]]; then
  if [[ -z ${POSTGRES_PASSWORD:-} ]]; then
    echo "POSTGRES_PASSWORD is required." >&2
    exit 1
  fi
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
         --auth-local=trust --auth-host=scram-sha-256 --pgdata="$PGDATA"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl --pgdata="$PGDATA" --wait --options="-c listen_addresses=''" start
  shopt -s nullglob
  for file in /docker-entrypoint-initdb.d/*; do
    case $file in
      *.sh) if [[ -x $file ]]; then "$file"; else source "$file"; fi ;;
      *.sql) psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres -f "$file" ;;
      *) echo "ignoring $file" ;;
    esac
  done
  pg_ctl --pgdata="$PGDATA" --mode=fast --wait stop
fi

shift
exec postgres -c listen_addresses='*' "$@"
