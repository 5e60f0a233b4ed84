-- Both databases live in one cluster, where CREATE SUBSCRIPTION cannot create its slot (it would wait for its own
-- transaction): the slot is created here, untimed, and the subscription uses it.
drop publication if exists syncdata_peer;
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = 'syncdata_peer';
create publication syncdata_peer for table {{table}};
select pg_create_logical_replication_slot('syncdata_peer', 'pgoutput');
