-- The target's "Odd Types" made to differ from the source before a typed merge (GeneratedRowTableTests): a row missing,
-- one altered (a point's y in its last digits), an extra one.
delete from "Team Sales"."Odd Types" where id = 2;
update "Team Sales"."Odd Types" set p = '(1.5,-2.0000000001)' where id = 1;
insert into "Team Sales"."Odd Types" (id) values (99);
