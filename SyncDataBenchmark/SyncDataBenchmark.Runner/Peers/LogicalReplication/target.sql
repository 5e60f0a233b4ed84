-- Not one transaction: CREATE SUBSCRIPTION cannot run inside one. 's' (synchronised) or 'r' (ready) means the
-- table's copy is committed; a failed synchronisation retries forever, so its error count ends the wait.
\getenv src_conninfo SRC_CONNINFO
select extract(epoch from clock_timestamp());
truncate {{table}};
create subscription {{subscription}} connection :'src_conninfo' publication {{subscription}}
    with (create_slot = false, slot_name = '{{subscription}}', copy_data = true);
do $$
declare
    deadline timestamptz := clock_timestamp() + interval '30 minutes';
begin
    loop
        exit when exists (select from pg_subscription_rel r join pg_subscription s on s.oid = r.srsubid
                          where s.subname = '{{subscription}}' and r.srrelid = '{{table}}'::regclass and r.srsubstate in ('s', 'r'));
        if exists (select from pg_stat_subscription_stats where subname = '{{subscription}}' and sync_error_count > 0) then
            raise exception 'the initial table synchronisation failed (its error is in the server log)';
        end if;
        if clock_timestamp() > deadline then
            raise exception 'the initial table synchronisation did not finish within 30 minutes';
        end if;
        perform pg_sleep(0.005);
        -- Statistics are cached for the rest of the transaction unless cleared.
        perform pg_stat_clear_snapshot();
    end loop;
end
$$;
select extract(epoch from clock_timestamp());
