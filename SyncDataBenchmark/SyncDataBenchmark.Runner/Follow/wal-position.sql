-- The WAL's insert position (every record inserted so far, the commits made without waiting for their flush included:
-- NpgsqlReplication's follower and the subscription's apply worker commit so); FlushedPositionAsync returns it once it is
-- flushed, which pg_walinspect needs. pg_current_wal_lsn() (the write position) left such commits out of the sample.
select pg_current_wal_insert_lsn()::text;
