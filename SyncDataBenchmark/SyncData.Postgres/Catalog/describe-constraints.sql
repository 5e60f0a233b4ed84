-- The constraints of relation $1 the target copies (primary key, unique, check, exclusion), as PostgreSQL prints them,
-- and the foreign keys it leaves out ('f': they name tables the target does not have).
select conname, contype::text, pg_get_constraintdef(oid)
from pg_constraint
where conrelid = $1::oid and contype in ('p', 'u', 'c', 'x', 'f')
order by contype, conname;
