-- The staging table of the COPY merges: the target's COPY columns, names and types only (no NOT NULL, key, identity,
-- generated expression or index: COPY into it checks nothing it need not, and a generated column, which COPY does not
-- write, is not there to stay NULL), temporary and dropped at the end of the run's transaction whatever happens (a
-- rollback removes it too, since it was created inside the transaction).
create temp table {staging} on commit drop as select {columns} from {table} with no data
