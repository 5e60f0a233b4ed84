drop view if exists syncdata_fdw_changed, syncdata_fdw_deleted, syncdata_fdw_snapshot;
drop table if exists syncdata_fdw_since;
