-- The load: a transaction renaming $2 random users after itself ($1: its load and number), so every row version has a name of its own.
update users set name = 'u' || $1, is_active = not is_active
where id in (select id from users order by random() limit $2)
