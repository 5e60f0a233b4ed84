-- The target's copy of the team's tables made to differ from the source before a merge (OwnTableServiceTests): rows
-- missing, rows altered (numeric 1.50 to 1.5: equal by "=", not by the checksum), and an extra row the merge must delete.
delete from "Team Sales"."Order Lines" where region = 2 and "order" = 1;
update "Team Sales"."Order Lines" set note = 'altered', total = 1.5 where region = 1 and "order" = 1;
update "Team Sales"."Order Lines" set mood = 'ok', tags = null where region = 2 and "order" = 2;
insert into "Team Sales"."Order Lines" (region, "order", "LineNo", note) values (3, 3, 99, 'extra');
delete from "Team Sales"."Always Keyed" where id in (1, 7);
update "Team Sales"."Always Keyed" set "Label" = 'altered' where id = 5;
insert into "Team Sales"."Always Keyed" overriding system value values (1000, 'extra');
