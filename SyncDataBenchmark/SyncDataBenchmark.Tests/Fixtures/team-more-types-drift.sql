-- The targets of team-more-types.sql's tables made to differ before a typed merge (GeneratedRowTableTests): a row
-- missing, one altered in a single value, an extra one (kept if an earlier case left it: the cases share the target).
delete from "Team Sales"."Money Bits" where id = 2;
update "Team Sales"."Money Bits" set bits = B'1010' where id = 4;
insert into "Team Sales"."Money Bits" (id) values (99) on conflict do nothing;
delete from "Team Sales"."Arrays" where id = 2;
update "Team Sales"."Arrays" set ints = '{1,NULL,-2147483648,2147483646}' where id = 1;
insert into "Team Sales"."Arrays" (id) values (99) on conflict do nothing;
delete from "Team Sales"."Ranges" where id = 2;
update "Team Sales"."Ranges" set rn = '[1.5,2.5)' where id = 1;
insert into "Team Sales"."Ranges" (id) values (99) on conflict do nothing;
delete from "Team Sales"."Bulk Arrays" where id = 2;
update "Team Sales"."Bulk Arrays" set amounts = '{1.5,-0.01,NULL,9999999999.99}' where id = 1;
insert into "Team Sales"."Bulk Arrays" (id) values (99) on conflict do nothing;
delete from "Team Sales"."Search" where id = 2;
update "Team Sales"."Search" set doc = 'fat:1A cat:2B' where id = 1;
insert into "Team Sales"."Search" (id) values (99) on conflict do nothing;
delete from "Team Sales"."Stamps" where id = 2;
update "Team Sales"."Stamps" set ts = '5000-06-15 12:34:56.789013' where id = 1;
insert into "Team Sales"."Stamps" (id) values (99) on conflict do nothing;
