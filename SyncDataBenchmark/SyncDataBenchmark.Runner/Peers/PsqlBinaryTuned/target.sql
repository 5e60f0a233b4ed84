-- The manual's "Populating a Database" advice in one transaction: drop the primary key, COPY with FREEZE (allowed
-- because the table was truncated in this transaction), re-add the key with a large maintenance_work_mem. The key's
-- name and definition are read from the catalog, not repeated here.
select extract(epoch from clock_timestamp());
begin;
truncate {{table}};
select quote_ident(conname) as pk_name, pg_get_constraintdef(oid) as pk_definition
from pg_constraint where conrelid = '{{table}}'::regclass and contype = 'p' \gset
alter table {{table}} drop constraint :pk_name;
set local maintenance_work_mem = '1GB';
\copy {{table}} ({{columns}}) from pstdin (format {{format}}, freeze)
alter table {{table}} add constraint :pk_name :pk_definition;
commit;
select extract(epoch from clock_timestamp());
