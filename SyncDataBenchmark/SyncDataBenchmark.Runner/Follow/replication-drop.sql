-- NpgsqlReplication's last resort after DELETE /follow?drop=true (which drops both itself): a slot or publication it
-- left would hold the source's WAL forever. An active slot still has a reader and cannot be dropped; {{slot}}: its name.
drop publication if exists {{slot}};
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{{slot}}' and not active;
