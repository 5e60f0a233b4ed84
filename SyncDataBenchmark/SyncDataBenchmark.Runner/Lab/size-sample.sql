-- After a sample of a table's seed, inside the transaction that then rolls it back (SizeCheck): the table's bytes with
-- its indexes and TOAST, and the cluster's max_wal_size (the WAL a checkpoint lets pile up before it recycles).
-- $1: the table as SQL names it.
select pg_total_relation_size(to_regclass($1)),
       pg_size_bytes(current_setting('max_wal_size'));
