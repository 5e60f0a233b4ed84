-- Stores the run's source snapshot as the table's watermark (SyncTransfer, after verification, in the run's transaction):
-- the target's rows and the point they are up to date with commit together, or neither does.
insert into sync_watermarks (table_name, snapshot, synced_at)
values ($1, $2::pg_snapshot, now())
on conflict (table_name) do update set snapshot = excluded.snapshot, synced_at = excluded.synced_at;
