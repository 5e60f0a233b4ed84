-- A non-transactional logical decoding message: a few bytes of WAL that every stream decodes at once, so a stream whose
-- table is quiet still learns an LSN up to which nothing of its table is pending, and can have it confirmed (else a
-- database busy with other tables piles up WAL for the slot).
select pg_logical_emit_message(false, 'syncdata-heartbeat', '')
