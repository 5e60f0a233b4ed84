-- Before a stream makes its slot: why this server cannot decode logically, or null when it can. Without it the slot's
-- creation failed with SQLSTATE 55000, which Npgsql counts as transient, so the follower retried for ever in
-- "copying" (issue 62: the AppHost's server ran wal_level=replica).
select case when current_setting('wal_level') <> 'logical'
            then format('wal_level is %s on the source''s server: NpgsqlReplication''s logical decoding needs wal_level=logical '
                        '(postgresql.conf or -c wal_level=logical, then a restart)', current_setting('wal_level'))
       end;
