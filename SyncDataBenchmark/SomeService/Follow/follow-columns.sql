-- The target table's columns, read once per follower connection (FollowedRelation): each one's name as stored, its
-- type as PostgreSQL names it (a small batch's values arrive as text, as pgoutput sends them, and are cast to it),
-- whether it is in the primary key (every change is found by the whole key) and whether it is GENERATED ALWAYS AS
-- IDENTITY (only OVERRIDING SYSTEM VALUE writes it). Generated columns are left out: pgoutput does not send them and
-- the target computes them. $1: the table as SQL names it.
select a.attname, format_type(a.atttypid, a.atttypmod), coalesce(a.attnum = any (i.indkey::int2[]), false), a.attidentity = 'a'
from pg_attribute a
left join pg_index i on i.indrelid = a.attrelid and i.indisprimary
where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
