-- The source side's last resort: the publication, and the slot should the subscription's drop have missed it.
drop publication if exists {{prefix}};
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{{prefix}}' and not active;
