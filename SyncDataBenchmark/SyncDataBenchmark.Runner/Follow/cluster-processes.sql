-- Every process of the cluster a follow mechanism can use (backends, walsenders, the subscription's apply worker,
-- autovacuum, the WAL writer, the checkpointer…), not the runner's own queries (their application_name is $1) nor
-- pgbench's writers.
select pid from pg_stat_activity
where coalesce(application_name, '') not in ($1, 'pgbench');
