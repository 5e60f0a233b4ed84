-- After an outage's load: the WAL the source wrote since its start ($1, an LSN), and what the mechanism's slot ($2)
-- holds from its restart_lsn on, the WAL the source cannot recycle (null: no such slot, the polled change log).
select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint,
       (select pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint from pg_replication_slots where slot_name = $2);
