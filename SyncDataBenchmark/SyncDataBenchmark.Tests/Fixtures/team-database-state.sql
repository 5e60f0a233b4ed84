-- What a run could leave in a team's database that pg_dump does not show (OwnTableBenchTests): replication slots
-- (cluster-wide), publications, and the counts of relations, triggers and functions in the database.
select (select count(*) from pg_replication_slots) || ' slots, '
    || (select count(*) from pg_publication) || ' publications, '
    || (select count(*) from pg_class) || ' relations, '
    || (select count(*) from pg_trigger) || ' triggers, '
    || (select count(*) from pg_proc) || ' functions';
