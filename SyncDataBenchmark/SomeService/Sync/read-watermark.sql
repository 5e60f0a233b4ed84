-- The target's watermark for one table (SyncTransfer, in the run's transaction): the source snapshot its last verified
-- sync read, as pg_current_snapshot() printed it; no row when the table was never synced.
select snapshot::text from sync_watermarks where table_name = $1;
