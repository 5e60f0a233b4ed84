# One target psql, one transaction: it reads its watermark W, then pulls from the source through \copy … from
# program (each program a psql on the source, streaming binary COPY), merges and deletes; its clock into $WORK/clock.
psql -X -q -At -v ON_ERROR_STOP=1 -d "$TGT" -o "$WORK/clock" -f "$WORK/target.sql"
