select pg_current_wal_flush_lsn() >= $1::pg_lsn;
