-- On the source: the rows keyed $1 (text[]) and their versions' commit times (track_commit_timestamp), ms since the epoch.
select id::text, (extract(epoch from pg_xact_commit_timestamp(xmin)) * 1000)::float8 from users where id::text = any ($1);
