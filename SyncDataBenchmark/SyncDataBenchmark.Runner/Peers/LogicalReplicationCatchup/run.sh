# The source's WAL position once the change is committed (read before the clock starts): caught up is the
# subscription's worker having been told, by the walsender's keepalive, that it has everything up to there.
CATCHUP_LSN=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" -c 'select pg_current_wal_insert_lsn()') &&
  CATCHUP_LSN="$CATCHUP_LSN" psql -X -q -At -v ON_ERROR_STOP=1 -d "$TGT" -o "$WORK/clock" -f "$WORK/target.sql"
