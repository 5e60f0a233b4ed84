-- Whether the walsender reading slot $2 has decoded and sent the WAL up to $1 (pg_stat_replication.sent_lsn).
select coalesce(bool_or(r.sent_lsn >= $1::pg_lsn), false)
from pg_replication_slots s
join pg_stat_replication r on r.pid = s.active_pid
where s.slot_name = $2
