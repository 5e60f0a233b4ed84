-- One source transaction of $1 new users (ReplicationTests' large transaction).
insert into users (id, name, patronymic, surname, created_at, is_active)
select gen_random_uuid(), 'big' || g, 'p', 's', localtimestamp, g % 2 = 0 from generate_series(1, $1) g
