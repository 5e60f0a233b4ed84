-- The WAL's write position, once flushed (pg_walinspect reads only flushed WAL; with synchronous_commit off, --tmpfs, the walwriter flushes within a moment).
select pg_current_wal_lsn()::text;
