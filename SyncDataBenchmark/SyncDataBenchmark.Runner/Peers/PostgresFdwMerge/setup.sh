psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -f "$WORK/source-setup.sql" &&
  psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/setup.sql"
