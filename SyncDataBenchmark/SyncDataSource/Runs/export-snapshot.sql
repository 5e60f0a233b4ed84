-- Opens a run's snapshot (SyncDataSource, RunSnapshots): run inside the REPEATABLE READ transaction that holds it for
-- the run. The id is what every later request of the run imports (SET TRANSACTION SNAPSHOT); xmin and the WAL
-- position say in the run record which state of the source the run read; the snapshot itself is the watermark the
-- next sync asks for changes since.
select pg_export_snapshot(),
       pg_snapshot_xmin(pg_current_snapshot())::text,
       pg_current_wal_lsn()::text,
       pg_current_snapshot()::text;
