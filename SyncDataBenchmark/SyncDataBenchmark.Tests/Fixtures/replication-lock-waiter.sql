-- The backend of this database waiting for a lock on users (ReplicationTests: the follower's batch, inside its
-- transaction, behind the test's lock), or no row.
select l.pid
from pg_locks l
where l.locktype = 'relation'
  and l.database = (select oid from pg_database where datname = current_database())
  and l.relation = 'users'::regclass
  and not l.granted
limit 1
