-- The target's users made to differ from the source before a typed merge (GeneratedRowTableTests): rows missing, rows altered, an extra one.
delete from users where id in (select id from users order by id limit 5);
update users set name = 'altered' where id in (select id from users order by id desc limit 5);
insert into users values (gen_random_uuid(), 'extra', '', '', '2024-01-01', true);
