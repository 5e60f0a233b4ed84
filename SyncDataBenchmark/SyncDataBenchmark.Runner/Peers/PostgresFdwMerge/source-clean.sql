drop view if exists syncdata_fdw_changed, syncdata_fdw_deleted, syncdata_fdw_snapshot;
drop function if exists syncdata_fdw_changed_rows(text), syncdata_fdw_deleted_keys(text);
drop table if exists syncdata_fdw_since;
