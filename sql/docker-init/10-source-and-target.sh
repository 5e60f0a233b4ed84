#!/usr/bin/env bash
# First-start initialisation for the official postgres image (docker-compose.debug.yml mounts this directory at
# /docker-entrypoint-initdb.d and the sql/ directory at /sql). Runs once, on an empty data volume:
#   - creates the databases `source` (SyncDataSource) and `target` (SomeService),
#   - applies sql/schema.sql to both,
#   - installs sql/generate.sql, sql/change-tracking.sql (the change log a change sync reads) and sql/changes.sql (the
#     change generator) on `source` and seeds it with SEED_ROWS generated users (default 1,000,000).
# It relies only on psql and libpq variables, so it also runs against any server:
#   PGHOST=127.0.0.1 PGPORT=5432 PGUSER=postgres SQL_DIR=sql SEED_ROWS=1000 bash sql/docker-init/10-source-and-target.sh
set -Eeuo pipefail

sql_dir="${SQL_DIR:-/sql}"
seed_rows="${SEED_ROWS:-1000000}"
user="${POSTGRES_USER:-${PGUSER:-postgres}}"

if ! [[ "$seed_rows" =~ ^[0-9]+$ ]]; then
  echo "SEED_ROWS must be a non-negative integer, got '$seed_rows'" >&2
  exit 1
fi

run_psql() {
  psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --username "$user" "$@"
}

for db in source target; do
  if [[ "$(run_psql --dbname postgres --tuples-only --no-align -c "select 1 from pg_database where datname = '$db'")" != 1 ]]; then
    run_psql --dbname postgres -c "create database \"$db\""
  fi
  run_psql --dbname "$db" -f "$sql_dir/schema.sql"
done

run_psql --dbname source -f "$sql_dir/generate.sql" -f "$sql_dir/change-tracking.sql" -f "$sql_dir/changes.sql"
if (( seed_rows > 0 )); then
  echo "Seeding source.users with $seed_rows rows..."
  run_psql --dbname source -c "select seed_users($seed_rows)"
fi
echo "source and target are ready: $(run_psql --dbname source --tuples-only --no-align -c 'select count(*) from users') rows in source.users."
