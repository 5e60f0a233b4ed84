-- The new watermark, as SomeService keeps it: the source snapshot the changes were read in (:watermark_source).
insert into sync_watermarks (table_name, snapshot, synced_at)
select '{{table}}', snapshot::pg_snapshot, now() from :watermark_source
on conflict (table_name) do update set snapshot = excluded.snapshot, synced_at = excluded.synced_at;
