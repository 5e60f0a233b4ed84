-- The follower's batches commit without waiting for their WAL flush, as a subscription's apply worker does: safe only
-- because a batch's source position is acknowledged once the target has flushed it (FlushGate), never before.
set synchronous_commit = off
