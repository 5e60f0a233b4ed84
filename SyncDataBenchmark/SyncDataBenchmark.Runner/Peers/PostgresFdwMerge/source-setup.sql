-- Untimed, on the source: postgres_fdw cannot call a function with an argument, so the watermark travels as a row
-- (the target inserts it through the foreign table, in the remote transaction its reads then share) and three views
-- apply the functions to it: the changed rows, the deleted keys, and the snapshot they are read in. postgres_fdw's
-- remote session runs with search_path = pg_catalog, where changed_<table>'s body does not find its table: the
-- wrappers set it.
\ir source-clean.sql
create table syncdata_fdw_since (since text not null);
create function syncdata_fdw_changed_rows(since text) returns setof {{table}} language sql stable
    set search_path = public, pg_catalog as 'select * from changed_{{table}}(since::pg_snapshot)';
create function syncdata_fdw_deleted_keys(since text) returns table (id {{table}}.id%type) language sql stable
    set search_path = public, pg_catalog as 'select * from deleted_{{table}}(since::pg_snapshot)';
create view syncdata_fdw_changed as
    select c.* from syncdata_fdw_since p cross join lateral syncdata_fdw_changed_rows(p.since) c;
create view syncdata_fdw_deleted as
    select d.id from syncdata_fdw_since p cross join lateral syncdata_fdw_deleted_keys(p.since) d;
create view syncdata_fdw_snapshot as select pg_current_snapshot()::text as snapshot;
