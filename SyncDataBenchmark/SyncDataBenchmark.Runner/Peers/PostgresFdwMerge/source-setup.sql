-- Untimed, on the source: postgres_fdw cannot call a function with an argument, so the watermark travels as a row
-- (the target inserts it through the foreign table, in the remote transaction its reads then share) and three views
-- apply the functions to it: the changed rows, the deleted keys, and the snapshot they are read in.
drop view if exists syncdata_fdw_changed, syncdata_fdw_deleted, syncdata_fdw_snapshot;
drop table if exists syncdata_fdw_since;
create table syncdata_fdw_since (since text not null);
create view syncdata_fdw_changed as
    select c.* from syncdata_fdw_since p cross join lateral changed_{{table}}(p.since::pg_snapshot) c;
create view syncdata_fdw_deleted as
    select d.id from syncdata_fdw_since p cross join lateral deleted_{{table}}(p.since::pg_snapshot) as d(id);
create view syncdata_fdw_snapshot as select pg_current_snapshot()::text as snapshot;
