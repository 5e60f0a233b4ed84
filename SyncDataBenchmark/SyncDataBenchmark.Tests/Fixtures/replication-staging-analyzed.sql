-- On the target: whether the follower's temp staging table of users has been analyzed (reltuples is -1 until then):
-- unanalyzed, the planner takes it as at least 10 pages and the MERGE hashes the whole target for a few rows.
select coalesce(bool_and(reltuples >= 0), false) from pg_class where relname = 'users_follow_staging' and relpersistence = 't';
