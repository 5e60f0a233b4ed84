-- A follower's slot, if there: dropped so it no longer keeps WAL. $1: the slot's name. Only once no stream reads it
-- (an active slot cannot be dropped): ReplicationStreams ends its stream first.
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1
