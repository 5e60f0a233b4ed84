select extract(epoch from clock_timestamp());
begin;
truncate {{users}};
insert into {{users}} ({{columns}}) select {{columns}} from syncdata_peer_fdw.{{users}};
commit;
select extract(epoch from clock_timestamp());
