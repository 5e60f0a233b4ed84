-- Why --follow cannot measure on this server, or null: the lag is the difference of two commit timestamps, and logical decoding needs wal_level = logical.
select case when current_setting('track_commit_timestamp') <> 'on'
            then 'track_commit_timestamp is off on this server; --follow measures lag from commit timestamps: set track_commit_timestamp = on and restart it'
            when current_setting('wal_level') <> 'logical'
            then 'wal_level is ' || current_setting('wal_level') || ' on this server; set wal_level = logical and restart it' end;
