select extract(epoch from clock_timestamp());
begin;
truncate {{table}};
insert into {{table}} ({{columns}}) select {{columns}} from syncdata_peer_fdw.{{table}};
commit;
select extract(epoch from clock_timestamp());
