-- Run on the source before the session (BenchSession.CheckPeersAsync): a logical slot needs wal_level = logical, which
-- only a restart can set. Returns why the peer cannot run on this server, or null when it can.
select case when current_setting('wal_level') = 'logical' then null
            else 'wal_level is ' || current_setting('wal_level')
                 || ' on the source server; set wal_level = logical and restart it to include this peer' end;
