-- The target table's primary key columns (MergeSql), in the key's order: each name quoted for use as an identifier
-- (quote_ident, as a built-in table's column list writes it), as stored (a described table's list quotes every name), and
-- its type as PostgreSQL names it, so the deleted keys (text, as the source prints them) are cast to the key's own type
-- and the deletes use its index. $1: the table as SQL names it (a built-in name, or a described table's quoted
-- schema.name).
select quote_ident(a.attname), a.attname, format_type(a.atttypid, a.atttypmod)
from pg_index i
join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey::int2[])
where i.indrelid = $1::regclass and i.indisprimary
order by array_position(i.indkey::int2[], a.attnum)
