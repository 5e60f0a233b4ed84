-- The target's "Spans" made to differ from the source before a typed merge (GeneratedRowTableTests): a row missing,
-- one altered by a microsecond (equal in months and days), an extra one.
delete from "Team Sales"."Spans" where id = 2;
update "Team Sales"."Spans" set span = '1 mon 2 days 03:04:05.678902' where id = 1;
insert into "Team Sales"."Spans" values (99, '1 day', '1 day');
