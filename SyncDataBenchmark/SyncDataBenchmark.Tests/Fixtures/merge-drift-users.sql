-- MergeWriterTests: run on a target that equals the source, makes it differ the way a target falls behind: rows
-- updated (a text, a flag, a timestamp by one microsecond), rows gone (the merge must insert them) and rows the source
-- never had (the merge must delete them). Answers each key it touched: 'changed' (a change fetch would deliver the
-- source's row) or 'deleted' (a change fetch would report the key deleted).
with numbered as (select id, row_number() over (order by id) as n from users),
renamed as (
    update users u set name = u.name || ' (stale)', is_active = not u.is_active
    from numbered where numbered.id = u.id and numbered.n % 9 = 1
    returning u.id::text as key, 'changed' as kind),
moved as (
    update users u set created_at = u.created_at + interval '1 microsecond'
    from numbered where numbered.id = u.id and numbered.n % 9 = 2 and isfinite(u.created_at)
    returning u.id::text, 'changed'),
removed as (
    delete from users u using numbered where numbered.id = u.id and numbered.n % 9 = 3
    returning u.id::text, 'changed'),
extra as (
    insert into users (id, name, patronymic, surname, created_at, is_active)
    select gen_random_uuid(), 'only in the target', '', '', timestamp '2020-01-01 00:00:00.000001' + n * interval '1 second', true
    from generate_series(1, 41) as n
    returning id::text, 'deleted')
select * from renamed union all select * from moved union all select * from removed union all select * from extra
