-- The target's watermark for a table ($1): the source snapshot ($2, as pg_current_snapshot() prints it) its rows are
-- now equal to; written in the transaction that wrote those rows (sql/schema.sql, sync_watermarks).
insert into sync_watermarks (table_name, snapshot, synced_at)
values ($1, $2::pg_snapshot, now())
on conflict (table_name) do update set snapshot = excluded.snapshot, synced_at = excluded.synced_at;
