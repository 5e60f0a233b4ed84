-- The LSN just applied, in the transaction of the rows it covers. $1: table, $2: slot, $3: LSN, $4: the source's commit time (null after the first copy).
insert into replication_watermarks (table_name, slot_name, lsn, source_committed_at, applied_at)
values ($1, $2, $3::pg_lsn, $4, clock_timestamp())
on conflict (table_name) do update
set slot_name = excluded.slot_name, lsn = excluded.lsn, source_committed_at = excluded.source_committed_at, applied_at = excluded.applied_at
