-- Changes a share of a source table (after schema.sql and change-tracking.sql): round(share × rows) rows, at least
-- one, 70% updates, 20% inserts, the rest deletes. Deterministic: the same rows and the same seed give the same
-- result. The rows touched are ordered by a hash of the seed, the key and a column every update advances, so the same
-- seed applied again to the changed table picks afresh and never re-creates a key it inserted before. An update
-- changes values the checksum sees (on orders: every column but the key). An insert copies one of the rows being
-- updated, as it was, under a new key.
-- Usage:  psql -d source -f sql/changes.sql -c 'select * from change_users(0.01, 1)'

-- The mix for a share of row_count rows.
create or replace function change_mix(share double precision, row_count bigint,
                                      out updates bigint, out inserts bigint, out deletes bigint)
language plpgsql
immutable
as $$
declare
  total bigint;
begin
  if share is null or share <= 0 or share > 1 or share = 'NaN' then
    raise exception 'share must be in (0, 1], got %', share;
  end if;
  if row_count < 1 then
    raise exception 'the table is empty: there is nothing to change';
  end if;
  total := greatest(1, round(share::numeric * row_count));
  updates := round(total * 0.7);
  inserts := round(total * 0.2);
  deletes := total - updates - inserts;
end
$$;

create or replace function change_users(share double precision, seed integer)
returns table (updated bigint, inserted bigint, deleted bigint)
language plpgsql
volatile
as $$
declare
  mix record;
  picked uuid[];
begin
  select * into mix from change_mix(share, (select count(*) from users));
  -- created_at advances with every update, so a row's place in the order changes once it has been updated.
  select array_agg(p.id order by p.rank) into picked
  from (select u.id, md5(seed || '/' || u.id || '/' || extract(epoch from u.created_at)) as rank
        from users as u order by 2 limit mix.updates + mix.deletes) as p;

  insert into users (id, name, patronymic, surname, created_at, is_active)
  select md5(seed || '/insert/' || u.id || '/' || extract(epoch from u.created_at))::uuid,
         u.name, u.patronymic, u.surname, u.created_at, u.is_active
  from users as u
  where u.id = any (picked[1:mix.inserts]);
  get diagnostics inserted = row_count;

  update users as u
  set name       = case when u.name like '%*' then left(u.name, -1) else u.name || '*' end,
      created_at = u.created_at + interval '1 second',
      is_active  = not u.is_active
  where u.id = any (picked[1:mix.updates]);
  get diagnostics updated = row_count;

  delete from users as u where u.id = any (picked[mix.updates + 1:mix.updates + mix.deletes]);
  get diagnostics deleted = row_count;
  return next;
end
$$;

create or replace function change_orders(share double precision, seed integer)
returns table (updated bigint, inserted bigint, deleted bigint)
language plpgsql
volatile
as $$
declare
  mix record;
  picked bigint[];
  base bigint;
  currencies text[] := array['EUR', 'USD', 'GBP', 'JPY', 'RUB', 'CNY', 'CHF', 'SEK'];
  statuses order_status[] := enum_range(null::order_status);
begin
  select * into mix from change_mix(share, (select count(*) from orders));
  -- item_count grows with every update, so a row's place in the order changes once it has been updated.
  select array_agg(p.id order by p.rank) into picked
  from (select o.id, md5(seed || '/' || o.id || '/' || o.item_count) as rank
        from orders as o order by 2 limit mix.updates + mix.deletes) as p;

  -- New keys after the largest, in the order of the rows they copy; the identity continues after them.
  select coalesce(max(o.id), 0) into base from orders as o;
  insert into orders (id, customer_id, status, total, discount, exchange_rate, currency, placed_at, delivery_date, tags,
                      attributes, note, attachment, item_count, is_gift, shipping_address)
  overriding system value
  select base + p.n, o.customer_id, o.status, o.total, o.discount, o.exchange_rate, o.currency, o.placed_at,
         o.delivery_date, o.tags, o.attributes, o.note, o.attachment, o.item_count, o.is_gift, o.shipping_address
  from unnest(picked[1:mix.inserts]) with ordinality as p(id, n)
  join orders as o on o.id = p.id;
  get diagnostics inserted = row_count;
  if inserted > 0 then
    perform setval(pg_get_serial_sequence('orders', 'id'), base + inserted);
  end if;

  update orders as o
  set customer_id      = md5(o.customer_id::text || '/' || seed)::uuid,
      status           = statuses[array_position(statuses, o.status) % array_length(statuses, 1) + 1],
      total            = o.total + 1,
      discount         = case when o.discount is null then round(o.total * 0.05, 4) end,
      exchange_rate    = case when o.exchange_rate in ('NaN', 'Infinity', '-Infinity') then 1 else o.exchange_rate + 0.125 end,
      currency         = currencies[coalesce(array_position(currencies, o.currency::text), 0) % array_length(currencies, 1) + 1],
      placed_at        = o.placed_at + interval '1 hour',
      delivery_date    = case when o.delivery_date is null then (o.placed_at at time zone 'UTC')::date end,
      tags             = array_append(o.tags[1:4], 'rev-' || seed),
      attributes       = o.attributes || jsonb_build_object('revision', seed),
      note             = case when o.note is null then 'changed by change_orders' end,
      attachment       = case when o.attachment is null then sha256(int8send(o.id)) end,
      item_count       = o.item_count + 1,
      is_gift          = not o.is_gift,
      shipping_address = case when o.shipping_address like '% (moved)' then left(o.shipping_address, -8)
                              else o.shipping_address || ' (moved)' end
  where o.id = any (picked[1:mix.updates]);
  get diagnostics updated = row_count;

  delete from orders as o where o.id = any (picked[mix.updates + 1:mix.updates + mix.deletes]);
  get diagnostics deleted = row_count;
  return next;
end
$$;
