-- Timed from enabling the subscription until its worker has applied everything the source wrote up to the change:
-- latest_end_lsn is the end position of the last keepalive the worker processed, which it reads only after applying
-- every transaction before it. A failing apply retries forever, so its error count ends the wait.
\getenv catchup_lsn CATCHUP_LSN
select set_config('syncdata.catchup_lsn', :'catchup_lsn', false) \g /dev/null
select extract(epoch from clock_timestamp());
alter subscription {{subscription}} enable;
do $$
declare
    deadline timestamptz := clock_timestamp() + interval '30 minutes';
begin
    loop
        exit when exists (select from pg_stat_subscription
                          where subname = '{{subscription}}' and latest_end_lsn >= current_setting('syncdata.catchup_lsn')::pg_lsn);
        if exists (select from pg_stat_subscription_stats where subname = '{{subscription}}' and apply_error_count > 0) then
            raise exception 'applying the changes failed (its error is in the server log)';
        end if;
        if clock_timestamp() > deadline then
            raise exception 'the subscription did not catch up within 30 minutes';
        end if;
        perform pg_sleep(0.005);
        -- Statistics are cached for the rest of the transaction unless cleared.
        perform pg_stat_clear_snapshot();
    end loop;
end
$$;
select extract(epoch from clock_timestamp());
