-- One target transaction; postgres_fdw runs one REPEATABLE READ transaction on the source for it, so the watermark
-- row written first, the snapshot, the changed rows and the deleted keys are all read in one source snapshot.
select extract(epoch from clock_timestamp());
begin;
{{watermark_check}}
insert into syncdata_peer_fdw.syncdata_fdw_since select snapshot::text from sync_watermarks where table_name = '{{table}}';
create temp table syncdata_new_watermark on commit drop as select snapshot from syncdata_peer_fdw.syncdata_fdw_snapshot;
\set merge_source syncdata_peer_fdw.syncdata_fdw_changed
{{merge}}
delete from {{table}} t using syncdata_peer_fdw.syncdata_fdw_deleted d where t.id = d.id;
\set watermark_source syncdata_new_watermark
{{watermark}}
delete from syncdata_peer_fdw.syncdata_fdw_since;
commit;
select extract(epoch from clock_timestamp());
