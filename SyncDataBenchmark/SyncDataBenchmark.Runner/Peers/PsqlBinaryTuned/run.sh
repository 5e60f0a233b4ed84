# Two psql processes joined by a kernel pipe; \copy … from pstdin reads psql's own stdin (the pipe) while the
# target's script comes from a file, its clock readings into $WORK/clock.
psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -c '\copy {{table}} ({{columns}}) to pstdout (format {{format}})' |
  psql -X -q -At -v ON_ERROR_STOP=1 -d "$TGT" -o "$WORK/clock" -f "$WORK/target.sql"
