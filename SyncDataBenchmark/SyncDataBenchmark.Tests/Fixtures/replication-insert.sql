-- The load: a transaction inserting $2 users, each named after the load and transaction ($1, text) and its place in it.
insert into users (id, name, patronymic, surname, created_at, is_active)
select gen_random_uuid(), 'i' || $1 || '-' || g, 'p', 's', localtimestamp, true from generate_series(1, $2) g
