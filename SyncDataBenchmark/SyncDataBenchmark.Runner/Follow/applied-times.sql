-- The target's side of the lag sample: each row's key ({{key}}: its whole primary key as text) and the time its version was committed on the target, read from
-- the commit records in the WAL between $1 and $2 (pg_walinspect; source and target share the cluster's WAL). Not
-- pg_xact_commit_timestamp: a subscription's apply worker commits with the replication origin's timestamp, which is
-- the SOURCE's commit time (its lag would read 0); a commit record's own time is the local one for every mechanism.
with commits as (
    select xid, split_part(description, ';', 1)::timestamptz as committed
    from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
    where resource_manager = 'Transaction' and record_type = 'COMMIT')
select {{key}}, (extract(epoch from c.committed) * 1000)::float8
from {{table}} t join commits c on c.xid = t.xmin;
