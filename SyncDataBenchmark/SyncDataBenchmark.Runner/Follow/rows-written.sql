-- The rows inserted, updated and deleted in the table between two WAL positions ($1, $2), one heap record each, read from
-- the WAL (pg_walinspect). Not pg_stat_user_tables: a backend reports its counts when it goes idle, up to 10 s later,
-- so an earlier seed's 10,000 inserts were counted inside a later run's load.
with relation as (
    select format('rel %s/%s/%s ', coalesce(nullif(c.reltablespace, 0), d.dattablespace), d.oid, pg_relation_filenode(c.oid)) as ref
    from pg_class c, pg_database d
    where c.oid = '{{table}}'::regclass and d.datname = current_database())
select count(*) filter (where w.record_type like 'INSERT%')::float8,
       count(*) filter (where w.record_type in ('UPDATE', 'HOT_UPDATE'))::float8,
       count(*) filter (where w.record_type = 'DELETE')::float8
from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn) w, relation r
where w.resource_manager = 'Heap' and position(r.ref in w.block_ref) > 0;
