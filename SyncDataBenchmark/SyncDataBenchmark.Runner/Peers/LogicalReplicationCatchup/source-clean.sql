drop publication if exists syncdata_catchup;
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = 'syncdata_catchup';
