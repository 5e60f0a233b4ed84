-- The native subscription's source side. Source and target are databases of one cluster, where CREATE SUBSCRIPTION
-- cannot create its slot (it would wait for its own transaction): the slot is made here, as Peers/LogicalReplication does.
drop publication if exists {{prefix}};
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{{prefix}}' and not active;
create publication {{prefix}} for table {{table}};
select pg_create_logical_replication_slot('{{prefix}}', 'pgoutput');
