-- After a batch's commit: the target's WAL insert position (at or past that commit's record) and how far its WAL is
-- flushed. The follower acknowledges a batch's source position once the second reaches the first (FlushGate).
select pg_current_wal_insert_lsn(), pg_current_wal_flush_lsn()
