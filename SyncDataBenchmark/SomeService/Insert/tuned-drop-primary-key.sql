-- Before the COPY (TunedLoad): no index insertion per row. Inside the run's transaction, so a failed run rolls it back.
-- {table} and {name} are filled in from the run's table (SyncTable.SqlName) and tuned-read-primary-key.sql (ALTER TABLE takes no parameters).
alter table {table} drop constraint {name}
