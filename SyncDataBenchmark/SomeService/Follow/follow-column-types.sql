-- The target table's columns and their types as PostgreSQL names them, read once per follower: a small batch's values
-- (text, as pgoutput sends them) are cast to them in its one statement (ChangeApplier's unnest road). $1: the table.
select quote_ident(a.attname), format_type(a.atttypid, a.atttypmod)
from pg_attribute a
where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
