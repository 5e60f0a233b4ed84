psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/target-clean.sql" &&
  psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/source-setup.sql" >/dev/null &&
  psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/target-setup.sql"
