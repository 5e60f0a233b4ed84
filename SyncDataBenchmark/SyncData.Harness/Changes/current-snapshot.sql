-- The first statement of a REPEATABLE READ transaction: it takes the transaction's snapshot, and this is that snapshot
-- as a watermark (every later statement of the transaction reads the same state).
select pg_current_snapshot()::text;
