-- The user-defined types among $1 (type oids), outside pg_catalog and information_schema: kind ('e' enum, 'd' domain,
-- others refused), qualified name, an enum's labels in order, a domain's base type, not null and check constraints, and
-- the extension that made a base type (citext: the target is given the extension, not the type).
select t.oid::int8,
       t.typtype::text,
       quote_ident(n.nspname) || '.' || quote_ident(t.typname),
       n.nspname,
       array(select quote_literal(e.enumlabel) from pg_enum as e where e.enumtypid = t.oid order by e.enumsortorder),
       case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end,
       t.typnotnull,
       array(select pg_get_constraintdef(c.oid) from pg_constraint as c where c.contypid = t.oid order by c.conname),
       t.typbasetype::int8,
       (select x.extname::text from pg_depend as d join pg_extension as x on x.oid = d.refobjid
        where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.refclassid = 'pg_extension'::regclass and d.deptype = 'e')
from pg_type as t
join pg_namespace as n on n.oid = t.typnamespace
where t.oid = any ($1::oid[]) and n.nspname not in ('pg_catalog', 'information_schema');
