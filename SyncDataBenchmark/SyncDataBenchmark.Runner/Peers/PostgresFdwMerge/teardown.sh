psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/teardown.sql" &&
  psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/source-clean.sql"
