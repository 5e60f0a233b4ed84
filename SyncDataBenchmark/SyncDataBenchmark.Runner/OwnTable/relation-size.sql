-- A user's table's size as its catalog last counted it (VACUUM/ANALYZE's estimate, -1 when never counted) and its bytes
-- on disk, heap and TOAST without indexes: what the run estimate before the first run is made from. Only reads pg_class
-- and the size functions, which need no privilege. $1: the table as SQL names it.
select c.reltuples::int8, pg_table_size(c.oid)
from pg_class as c
where c.oid = to_regclass($1);
