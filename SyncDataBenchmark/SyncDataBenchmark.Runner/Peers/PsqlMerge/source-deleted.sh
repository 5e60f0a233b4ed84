# The keys deleted since the target's watermark, as binary COPY.
psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -c "\copy (select * from deleted_{{table}}('$WATERMARK'::pg_snapshot)) to pstdout (format binary)"
