-- A subscription's source side gone: its publication, and its slot should dropping the subscription have missed it
-- (a slot still read is left: dropping it would fail). {{subscription}}: their name.
drop publication if exists {{subscription}};
select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '{{subscription}}' and not active;
