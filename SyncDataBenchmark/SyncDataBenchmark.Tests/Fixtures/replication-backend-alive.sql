-- Whether backend $1 still runs (a killed client's backend ends, rolling its open transaction back, once it next
-- talks to the client it lost).
select exists (select from pg_stat_activity where pid = $1)
