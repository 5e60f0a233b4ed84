-- The indexes of relation $1 that no constraint owns (a constraint's index comes with the constraint), as CREATE INDEX
-- statements naming the table by its schema.
select pg_get_indexdef(i.indexrelid)
from pg_index as i
where i.indrelid = $1::oid and not exists (select from pg_constraint as c where c.conindid = i.indexrelid)
order by i.indexrelid;
