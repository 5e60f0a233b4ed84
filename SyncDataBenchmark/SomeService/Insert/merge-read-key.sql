-- The target table's primary key column (MergeSql): its name, quoted for use as an identifier, and its type as
-- PostgreSQL names it, so the deleted keys (text, as the source prints them) are cast to the key's own type and the
-- deletes use its index. One row per key column; the merges handle single-column keys only. $1: the table.
select quote_ident(a.attname), format_type(a.atttypid, a.atttypmod)
from pg_index i
join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
where i.indrelid = $1::regclass and i.indisprimary
