-- One source transaction changing one row: the users row at offset $1 by key; its key back.
update users set name = name || 'x' where id = (select id from users order by id offset $1 limit 1) returning id::text;
