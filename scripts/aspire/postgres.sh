#!/usr/bin/env bash
# PostgreSQL for the Aspire AppHost (SyncDataBenchmark.AppHost): Debian's server binaries, no Docker.
#   scripts/aspire/postgres.sh DATA_DIR PORT      (SEED_ROWS: rows seeded into source.users, default 1,000,000)
# On an empty DATA_DIR: initdb, then the compose stack's own init (sql/docker-init/10-source-and-target.sh) against a
# server on its unix socket only, as the official image's entrypoint does, so nothing connects over TCP before the
# databases are seeded (the AppHost's health check connects over TCP). A DATA_DIR already seeded is reused (like the
# compose volume; delete it to start over). Then the server runs until the AppHost stops it (SIGTERM: a fast
# shutdown, whatever clients are connected). As root every server command runs as `postgres`, which refuses root.
set -Eeuo pipefail
data=$1 port=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
cluster=$data/cluster socket=$data/socket
as_pg=()
mkdir -p "$socket"
if [[ $(id -u) == 0 ]]; then
  as_pg=(runuser -u postgres --)
  chown postgres:postgres "$data" "$socket"
fi
pg_ctl() { "${as_pg[@]}" "$bin/pg_ctl" -D "$cluster" "$@"; }

if [[ ! -e $data/seeded ]]; then
  rm -rf "$cluster"
  "${as_pg[@]}" "$bin/initdb" -D "$cluster" -U postgres -A trust -E UTF8 --locale=C --no-sync >/dev/null
  pg_ctl -o "-p $port -k $socket -c listen_addresses=''" -w -t 120 -l "$data/init.log" start >/dev/null
  PGHOST=$socket PGPORT=$port PGUSER=postgres SQL_DIR=$root/sql bash "$root/sql/docker-init/10-source-and-target.sh"
  pg_ctl -m fast -w stop >/dev/null
  touch "$data/seeded"
fi

# wal_level=logical: POST /follow/{table} (NpgsqlReplication) needs logical decoding; the default, replica, failed it
# (issue 62). Given at every start, so a DATA_DIR seeded before this line has it too.
"${as_pg[@]}" "$bin/postgres" -D "$cluster" -p "$port" -k "$socket" -c listen_addresses=127.0.0.1 -c wal_level=logical &
server=$!
trap 'pg_ctl -m fast -w stop >/dev/null; wait "$server"; exit 0' TERM INT
wait "$server"
