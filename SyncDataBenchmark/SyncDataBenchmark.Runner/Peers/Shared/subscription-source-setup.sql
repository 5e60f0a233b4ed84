-- A subscription's source side, made anew: its publication for the table and its slot, both named {{subscription}} (as
-- the subscription). Source and target may be databases of one cluster, where CREATE SUBSCRIPTION cannot create its
-- slot (it would wait for its own transaction): the slot is made here. Shared by the peers LogicalReplication and
-- LogicalReplicationCatchup and by --follow's native subscription (Follow/NativeSubscriptionMechanism).
drop publication if exists {{subscription}};
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{{subscription}}' and not active;
create publication {{subscription}} for table {{table}};
select pg_create_logical_replication_slot('{{subscription}}', 'pgoutput');
