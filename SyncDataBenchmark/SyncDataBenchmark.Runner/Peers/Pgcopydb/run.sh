# pgcopydb 0.10 copy table-data does not truncate: psql does it first, inside the timed command.
psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -c 'truncate {{table}}' &&
  pgcopydb copy table-data --source "$SRC" --target "$TGT" --dir "$WORK/pgcopydb" --filters "$WORK/filters.ini" > "$WORK/pgcopydb.log" 2>&1
