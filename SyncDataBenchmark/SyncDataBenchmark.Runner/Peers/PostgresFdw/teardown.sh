psql -X -q -v ON_ERROR_STOP=1 -d "$TGT" -f "$WORK/teardown.sql"
