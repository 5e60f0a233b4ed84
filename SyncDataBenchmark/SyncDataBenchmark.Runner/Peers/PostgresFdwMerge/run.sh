psql -X -q -At -v ON_ERROR_STOP=1 -d "$TGT" -o "$WORK/clock" -f "$WORK/target.sql"
