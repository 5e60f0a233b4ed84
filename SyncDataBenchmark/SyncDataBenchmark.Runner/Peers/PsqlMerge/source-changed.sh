# The rows changed since the target's watermark ($WATERMARK, set by target.sql), as binary COPY.
psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -c "\copy (select {{columns}} from changed_{{table}}('$WATERMARK'::pg_snapshot)) to pstdout (format binary)"
