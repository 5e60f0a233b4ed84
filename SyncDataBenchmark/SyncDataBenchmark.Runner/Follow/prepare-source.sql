-- The users write load picks the rows it updates and deletes by TABLESAMPLE SYSTEM_ROWS (sql/follow/users.pgbench.sql):
-- tsm_system_rows; the rows each load wrote are counted from the WAL (rows-written.sql): pg_walinspect. Both contrib
-- extensions, in the lab's source database.
create extension if not exists tsm_system_rows;
create extension if not exists pg_walinspect;
