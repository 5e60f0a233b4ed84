-- The staging table of the COPY merges: the target's columns (LIKE copies names, types and NOT NULL, not the key, the
-- identity or the indexes: COPY into it checks nothing it need not), temporary and dropped at the end of the run's
-- transaction whatever happens (a rollback removes it too, since it was created inside the transaction).
create temp table {staging} (like {table}) on commit drop
