-- The primary key's columns of relation $1, in the key's order; no row when it has none.
select a.attname
from pg_index as i
join pg_attribute as a on a.attrelid = i.indrelid and a.attnum = any (i.indkey::int2[])
where i.indrelid = $1::oid and i.indisprimary
order by array_position(i.indkey::int2[], a.attnum);
