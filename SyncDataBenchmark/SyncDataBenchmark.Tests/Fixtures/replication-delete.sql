-- The load: a transaction deleting $2 random users ($1 unused, for a uniform call).
delete from users where id in (select id from users where $1::text <> '' order by random() limit $2)
