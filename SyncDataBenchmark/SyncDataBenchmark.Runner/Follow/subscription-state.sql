-- The subscription's table state: 'r' (ready) once the first copy is done and changes stream; and its errors (a failed
-- copy or apply retries forever, so the error counts end the wait).
select coalesce((select r.srsubstate::text from pg_subscription_rel r join pg_subscription s on s.oid = r.srsubid
                 where s.subname = '{{prefix}}' and r.srrelid = '{{table}}'::regclass), 'none'),
       coalesce((select sync_error_count + apply_error_count from pg_stat_subscription_stats where subname = '{{prefix}}'), 0);
