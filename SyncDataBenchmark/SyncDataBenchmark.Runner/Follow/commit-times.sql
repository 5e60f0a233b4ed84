-- The source's side of the lag sample: each row's key ({{key}}: its whole primary key as text) and its version's commit time (ms since the epoch;
-- track_commit_timestamp), for the rows whose version was committed from $1 to $2 (the load's window).
select {{key}}, (extract(epoch from pg_xact_commit_timestamp(t.xmin)) * 1000)::float8
from {{table}} t
where pg_xact_commit_timestamp(t.xmin) between $1 and $2;
