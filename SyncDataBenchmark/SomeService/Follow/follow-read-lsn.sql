-- The LSN the target's table is up to date with, for this slot (a follower's resume point); no row: start anew. $1: table, $2: slot.
select lsn::text from replication_watermarks where table_name = $1 and slot_name = $2
