-- After the COPY (TunedLoad): one sorted index build. Fails, and with it the run, if the rows hold a duplicate key.
-- {table}, {name} and {definition} are filled in from the run's table (SyncTable.SqlName) and tuned-read-primary-key.sql.
alter table {table} add constraint {name} {definition}
