-- The relation $1 names (to_regclass: unquoted parts fold to lower case, as SQL does), its schema, name and kind; no
-- row when there is none.
select c.oid::int8, n.nspname, c.relname, c.relkind::text
from pg_class as c
join pg_namespace as n on n.oid = c.relnamespace
where c.oid = to_regclass($1);
