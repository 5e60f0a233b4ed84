-- Truncate and copy in one transaction, as SomeService does; the clock before the first statement and after the commit.
select extract(epoch from clock_timestamp());
begin;
truncate {{table}};
\copy {{table}} ({{columns}}) from pstdin (format {{format}})
commit;
select extract(epoch from clock_timestamp());
