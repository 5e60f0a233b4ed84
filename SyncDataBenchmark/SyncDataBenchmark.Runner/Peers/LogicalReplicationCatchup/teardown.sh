psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/target-clean.sql" &&
  psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/source-clean.sql" >/dev/null
