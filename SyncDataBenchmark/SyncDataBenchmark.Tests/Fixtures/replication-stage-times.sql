-- On the target: each users row's key and the time the target committed its version, from its commit record in the
-- cluster's WAL since $1 (pg_walinspect; as the --follow runner's applied-times.sql), ms since the epoch.
with commits as (
    select xid, split_part(description, ';', 1)::timestamptz as committed
    from pg_get_wal_records_info($1::pg_lsn, pg_current_wal_flush_lsn())
    where resource_manager = 'Transaction' and record_type = 'COMMIT')
select t.id::text, (extract(epoch from c.committed) * 1000)::float8
from users t join commits c on c.xid = t.xmin;
