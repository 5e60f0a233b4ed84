# The source's snapshot before the changes are read: the next watermark (a change committed after it comes again next time).
psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" -c 'select pg_current_snapshot()'
