-- psql COPY into temp tables + MERGE + delete, in one target transaction; the clock before its first statement and
-- after its commit.
select extract(epoch from clock_timestamp());
begin;
{{watermark_check}}
select snapshot::text as watermark from sync_watermarks where table_name = '{{table}}' \gset
\setenv WATERMARK :watermark
create temp table syncdata_new_watermark (snapshot text) on commit drop;
\copy syncdata_new_watermark from program 'sh source-snapshot.sh'
create temp table syncdata_changed (like {{table}}) on commit drop;
\copy syncdata_changed ({{columns}}) from program 'sh source-changed.sh' (format binary)
create temp table syncdata_deleted on commit drop as select id from {{table}} with no data;
\copy syncdata_deleted from program 'sh source-deleted.sh' (format binary)
\set merge_source syncdata_changed
{{merge}}
delete from {{table}} t using syncdata_deleted d where t.id = d.id;
\set watermark_source syncdata_new_watermark
{{watermark}}
commit;
select extract(epoch from clock_timestamp());
