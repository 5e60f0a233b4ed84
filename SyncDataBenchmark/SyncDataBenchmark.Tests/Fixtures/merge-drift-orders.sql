-- MergeWriterTests: the orders version of merge-drift-users.sql. Every column kind changes somewhere, the awkward
-- orders (ids above 1000000) among the rows touched; one change is invisible to "=" and visible to the checksum: a
-- numeric's scale (exchange_rate + 0.0000000 equals the old value but prints more digits).
with numbered as (select id, row_number() over (order by id) as n from orders),
money as (
    update orders o set total = o.total + 1, discount = case when o.discount is null then 0.5 end,
                        status = case when o.status = 'paid' then 'pending'::order_status else 'paid'::order_status end,
                        placed_at = o.placed_at - interval '1 microsecond', currency = 'XXX'
    from numbered where numbered.id = o.id and (numbered.n % 9 = 1 or o.id = 1000004)
    returning o.id::text as key, 'changed' as kind),
scale as (
    update orders o set exchange_rate = o.exchange_rate + 0.0000000
    from numbered where numbered.id = o.id and (numbered.n % 9 = 2 or o.id = 1000006)
    returning o.id::text, 'changed'),
documents as (
    update orders o set tags = o.tags || '{stale,NULL}'::text[], attributes = o.attributes || '{"stale": [1.50]}',
                        note = case when o.note is null then 'now noted' end, attachment = '\xdeadbeef',
                        delivery_date = o.delivery_date - 1, item_count = o.item_count # 1, is_gift = not o.is_gift,
                        shipping_address = o.shipping_address || ' (old)'
    from numbered where numbered.id = o.id and numbered.n % 9 = 3
    returning o.id::text, 'changed'),
removed as (
    delete from orders o using numbered where numbered.id = o.id and (numbered.n % 9 = 4 or o.id in (1000001, 1000002, 1000003, 1000005))
    returning o.id::text, 'changed'),
extra as (
    insert into orders (id, customer_id, status, total, exchange_rate, currency, placed_at, tags, attributes, item_count, is_gift, shipping_address)
    select -n, gen_random_uuid(), 'pending', n, 1, 'EUR', timestamptz '2020-01-01 00:00:00.000001+00', '{}', '{}', n, false, 'only in the target'
    from generate_series(1, 23) as n
    returning id::text, 'deleted')
select * from money union all select * from scale union all select * from documents union all select * from removed union all select * from extra
