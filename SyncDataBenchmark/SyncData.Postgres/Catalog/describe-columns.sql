-- The columns of relation $1 in order: name, type as format_type prints it (typmod included), the type's binary send
-- function (what the checksum reads each value through), not null, the generation expression of a generated column,
-- identity ('a' always, 'd' by default, '' none), the collation when it is not the type's own, and the type's oid with
-- its element type's (an array's) for the user-defined types the target needs first. Then the type a domain stands
-- for (domains over domains followed down): its name in pg_catalog ("" outside it), its typtype, its typmod, its
-- element's name in pg_catalog for an array, its schema and name and labels for an enum, its format_type: what the typed writers'
-- row classes are generated from (ColumnBaseType).
select a.attname,
       format_type(a.atttypid, a.atttypmod),
       t.typsend::regproc::text,
       a.attnotnull,
       case when a.attgenerated <> '' then pg_get_expr(d.adbin, d.adrelid) end,
       a.attidentity::text,
       case when a.attcollation <> t.typcollation then quote_ident(co.collname) end,
       a.atttypid::int8,
       t.typelem::int8,
       case when bn.nspname = 'pg_catalog' then bt.typname::text else '' end,
       bt.typtype::text,
       base.typmod,
       coalesce((select e.typname::text from pg_type as e join pg_namespace as en on en.oid = e.typnamespace
                 where e.oid = bt.typelem and bt.typcategory = 'A' and en.nspname = 'pg_catalog'), ''),
       bn.nspname::text,
       bt.typname::text,
       array(select l.enumlabel::text from pg_enum as l where l.enumtypid = bt.oid order by l.enumsortorder),
       format_type(base.oid, base.typmod)
from pg_attribute as a
join pg_type as t on t.oid = a.atttypid
cross join lateral (
    with recursive down(oid, typmod, depth) as (
        select a.atttypid, a.atttypmod, 0
        union all
        select dt.typbasetype, dt.typtypmod, down.depth + 1
        from down join pg_type as dt on dt.oid = down.oid
        where dt.typtype = 'd')
    select down.oid, down.typmod from down order by down.depth desc limit 1) as base
join pg_type as bt on bt.oid = base.oid
join pg_namespace as bn on bn.oid = bt.typnamespace
left join pg_attrdef as d on d.adrelid = a.attrelid and d.adnum = a.attnum
left join pg_collation as co on co.oid = a.attcollation
where a.attrelid = $1::oid and a.attnum > 0 and not a.attisdropped
order by a.attnum;
