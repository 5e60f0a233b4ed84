-- The columns of relation $1 in order: name, type as format_type prints it (typmod included), the type's binary send
-- function (what the checksum reads each value through), not null, the generation expression of a generated column,
-- identity ('a' always, 'd' by default, '' none), the collation when it is not the type's own, and the type's oid with
-- its element type's (an array's) for the user-defined types the target needs first.
select a.attname,
       format_type(a.atttypid, a.atttypmod),
       t.typsend::regproc::text,
       a.attnotnull,
       case when a.attgenerated <> '' then pg_get_expr(d.adbin, d.adrelid) end,
       a.attidentity::text,
       case when a.attcollation <> t.typcollation then quote_ident(co.collname) end,
       a.atttypid::int8,
       t.typelem::int8
from pg_attribute as a
join pg_type as t on t.oid = a.atttypid
left join pg_attrdef as d on d.adrelid = a.attrelid and d.adnum = a.attnum
left join pg_collation as co on co.oid = a.attcollation
where a.attrelid = $1::oid and a.attnum > 0 and not a.attisdropped
order by a.attnum;
