-- Untimed, before the target is made equal to the source and the source changes: the publication and the slot, so
-- the slot holds every change made after it. Both databases may live in one cluster, where CREATE SUBSCRIPTION
-- cannot create its slot (it would wait for its own transaction): the slot is created here.
drop publication if exists syncdata_catchup;
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = 'syncdata_catchup';
create publication syncdata_catchup for table {{table}};
select pg_create_logical_replication_slot('syncdata_catchup', 'pgoutput');
