-- The target's "Typed Lines" made to differ from the source before a typed merge (GeneratedRowTableTests): a row
-- missing, one altered (numeric 1.50 to 1.5: equal by "=", not by the checksum; another enum label), an extra one
-- sharing its key's first two columns with a source row, so only a merge that keys on the whole key deletes it.
delete from "Team Sales"."Typed Lines" where "Region" = 2 and "order" = 1;
update "Team Sales"."Typed Lines" set note = 'altered', total = 1.5, mode = 'Sea' where "Region" = 1 and "order" = 1;
insert into "Team Sales"."Typed Lines" ("Region", "order", "Line No", "select") values (1, 2, 99, false);
