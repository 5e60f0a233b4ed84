-- Test data generators: seed_users reproduces the original write-up's data set; seed_orders makes the wide table's,
-- the same rows for the same seed.
-- Usage:  psql -d source -f sql/schema.sql -f sql/generate.sql -c 'select seed_users(1000000)' -c 'select seed_orders(1000000, 1)'
-- Works on PostgreSQL 15, 16 and 17 (the original's `1_000_000` literal needs 16+, so the count is a parameter).

-- uuid v7: a random v4 uuid with the first 48 bits overlaid by the Unix time in ms and the version bits flipped to 7.
create or replace function uuid_generate_v7()
returns uuid
as $$
begin
  return encode(
    set_bit(
      set_bit(
        overlay(uuid_send(gen_random_uuid())
                placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
                from 1 for 6
        ),
        52, 1
      ),
      53, 1
    ),
    'hex')::uuid;
end
$$
language plpgsql
volatile;

-- Replaces the contents of users with row_count generated rows, then refreshes statistics.
create or replace function seed_users(row_count integer)
returns integer
as $$
begin
  truncate users;
  insert into users
  select
      uuid_generate_v7() as id,
      arrays.firstnames[s.a % array_length(arrays.firstnames, 1) + 1] as name,
      substring('ABCDEFGHIJKLMNOPQRSTUVWXYZ' from s.a % 26 + 1 for 1) as patronymic,
      arrays.lastnames[s.a % array_length(arrays.lastnames, 1) + 1] as surname,
      -- as in the original: the interval is negative, so dates fall in the 90 days before 2025-01-01 05:00
      timestamp '2025-01-01 05:00:00' + random() * (timestamp '2025-01-01 05:00:00' - timestamp '2025-04-01 05:00:00') as created_at,
      random() < 0.9 as is_active
  from generate_series(1, row_count) as s(a)
  cross join (
      select array[
          'Adam','Bill','Bob','Calvin','Donald','Dwight','Frank','Fred','George','Howard',
          'James','John','Jacob','Jack','Martin','Matthew','Max','Michael',
          'Paul','Peter','Phil','Roland','Ronald','Samuel','Steve','Theo','Warren','William',
          'Abigail','Alice','Allison','Amanda','Anne','Barbara','Betty','Carol','Cleo','Donna',
          'Jane','Jennifer','Julie','Martha','Mary','Melissa','Patty','Sarah','Simone','Susan'
      ] as firstnames,
      array[
          'Matthews','Smith','Jones','Davis','Jacobson','Williams','Donaldson','Maxwell','Peterson','Stevens',
          'Franklin','Washington','Jefferson','Adams','Jackson','Johnson','Lincoln','Grant','Fillmore','Harding','Taft',
          'Truman','Nixon','Ford','Carter','Reagan','Bush','Clinton','Hancock'
      ] as lastnames
  ) as arrays;
  analyze users;
  return row_count;
end
$$
language plpgsql
volatile;

-- A uniform double in [0, 1) for one field of one row: a hash of (seed, row, field), so the data depends on the seed
-- alone, not on the plan, the session or the PostgreSQL build (hashint8extended is the hash partitioning relies on).
create or replace function orders_unit(seed bigint, n bigint, field integer)
returns double precision
as $$
  select (hashint8extended(n, seed * 64 + field) & 9007199254740991)::double precision / 9007199254740992
$$
language sql
immutable
parallel safe;

-- Replaces the contents of orders with row_count generated rows, the same for the same seed, then refreshes
-- statistics. About 1 KiB a row in binary COPY on average: NULL in 25-50% of discount, delivery_date, note and
-- attachment; a note long enough to be TOASTed in about 5% of rows; attachments of 0-64 KiB, 5% of them above 2 KiB,
-- random (incompressible) bytes; tags with NULL elements and empty arrays; jsonb with nested objects and arrays,
-- non-ASCII text and characters JSON must escape.
create or replace function seed_orders(row_count integer, seed bigint default 1)
returns integer
as $$
begin
  truncate orders;
  insert into orders (id, customer_id, status, total, discount, exchange_rate, currency, placed_at, delivery_date, tags,
                      attributes, note, attachment, item_count, is_gift, shipping_address)
  overriding system value
  select
      r.n,
      md5(seed || '/customer/' || floor(orders_unit(seed, r.n, 1) * greatest(row_count / 8, 1)))::uuid,
      (enum_range(null::order_status))[1 + floor(orders_unit(seed, r.n, 2) * 6)::integer],
      r.total,
      case when orders_unit(seed, r.n, 4) < 0.4 then null else round(r.total * (orders_unit(seed, r.n, 5) * 0.3)::numeric, 4) end,
      -- 18 significant digits: more than a double carries, within a decimal.
      round(0.5 + orders_unit(seed, r.n, 6)::numeric + (hashint8extended(r.n, seed * 64 + 7) % 1000000)::numeric / 1e18, 18),
      (array['EUR', 'USD', 'GBP', 'JPY', 'RUB', 'CNY', 'CHF', 'SEK'])[1 + floor(orders_unit(seed, r.n, 8) * 8)::integer],
      r.placed_at,
      case when orders_unit(seed, r.n, 9) < 0.3 then null else (r.placed_at at time zone 'UTC')::date + floor(orders_unit(seed, r.n, 10) * 14)::integer end,
      array(select (array['express', 'fragile', 'gift-wrap', 'b2b', 'promo', 'подарок', '返品', 'pre-order', null])[1 + floor(orders_unit(seed, r.n, 20 + t) * 9)::integer]
            from generate_series(1, floor(orders_unit(seed, r.n, 11) * 6)::integer) as t),
      jsonb_build_object(
          'channel', (array['web', 'ios', 'android', 'partner', 'call-centre'])[1 + floor(orders_unit(seed, r.n, 12) * 5)::integer],
          'customer', jsonb_build_object('name', (array['Zoë Ångström', 'Олег Ким', '王芳', 'Seán O''Brien', 'Ana "Nana" Gómez', 'Dmitri\Novák'])[1 + floor(orders_unit(seed, r.n, 13) * 6)::integer],
                                         'locale', (array['en-GB', 'ru-RU', 'zh-CN', 'es-ES', 'de-DE'])[1 + floor(orders_unit(seed, r.n, 14) * 5)::integer],
                                         'vip', orders_unit(seed, r.n, 15) < 0.05),
          'items', (select jsonb_agg(jsonb_build_object(
                                 'sku', 'SKU-' || (hashint8extended(r.n * 8 + i, seed) & 65535),
                                 'qty', 1 + (hashint8extended(r.n * 8 + i, seed + 1) & 3),
                                 'title', (array['Kaffeemühle', 'Чайник', '保温杯', 'Café crème 🥐', 'Tab	separated', 'Line
break'])[1 + (hashint8extended(r.n * 8 + i, seed + 2) & 7) % 6]))
                    from generate_series(1, 1 + floor(orders_unit(seed, r.n, 16) * 4)::integer) as i),
          'comment', case when orders_unit(seed, r.n, 17) < 0.2 then 'Leave at the door' || chr(1) || ', ring twice "please" \o/' end),
      case
          when orders_unit(seed, r.n, 18) < 0.25 then null
          when orders_unit(seed, r.n, 19) < 0.07 then
              (select string_agg(p.paragraph, E'\n\n') from generate_series(1, 4 + floor(orders_unit(seed, r.n, 30) * 8)::integer) as k
               cross join lateral (select paragraphs.texts[1 + (hashint8extended(r.n * 64 + k, seed + 3) & 255)] as paragraph) as p)
          else (array['Please deliver after 6 pm.', 'Счёт на компанию, ИНН в заявке.', '请在工作日送货。', 'Gift — no price on the slip.',
                      'Call before delivery; the intercom is broken.'])[1 + floor(orders_unit(seed, r.n, 31) * 5)::integer]
      end,
      case
          when orders_unit(seed, r.n, 32) < 0.5 then null
          else substring(blob.bytes from 1 + floor(orders_unit(seed, r.n, 33) * (1048576 - 65536))::integer for r.attachment_size)
      end,
      1 + floor(orders_unit(seed, r.n, 34) ^ 2 * 20)::integer,
      orders_unit(seed, r.n, 35) < 0.1,
      (1 + floor(orders_unit(seed, r.n, 36) * 250)::integer) || ' ' ||
      (array['Baker Street, London NW1 6XE', 'ул. Тверская, Москва 125009', '南京路, 上海 200001', 'Calle de Alcalá, Madrid 28014', 'Königsallee, Düsseldorf 40212'])[1 + floor(orders_unit(seed, r.n, 37) * 5)::integer]
  from (
      select s.n,
             round((orders_unit(seed, s.n, 3) ^ 2 * 25000)::numeric, 4) as total,
             timestamptz '2024-01-01 00:00:00+00' + orders_unit(seed, s.n, 38) * interval '366 days' as placed_at,
             case
                 when orders_unit(seed, s.n, 39) < 0.80 then floor(orders_unit(seed, s.n, 40) * 257)::integer
                 when orders_unit(seed, s.n, 39) < 0.95 then 257 + floor(orders_unit(seed, s.n, 40) * 1792)::integer
                 -- 2 KiB to 64 KiB, most of them small: 2 KiB × 32^(u³).
                 else least(65536, floor(2048 * power(32, orders_unit(seed, s.n, 40) ^ 3))::integer)
             end as attachment_size
      from generate_series(1, row_count) as s(n)
  ) as r
  -- One MiB of hash output that attachments are cut from: random bytes (zero bytes among them), built once.
  cross join (select string_agg(sha256(int8send(seed * 1000003 + b)), ''::bytea order by b) as bytes
              from generate_series(1, 32768) as b) as blob
  -- 256 paragraphs of words the long notes are made of (~400-900 characters each).
  cross join (select array_agg(paragraph order by p) as texts
              from (select p, string_agg((array['the', 'order', 'was', 'shipped', 'on', 'time', 'customer', 'asked', 'for', 'a',
                                                 'refund', 'because', 'parcel', 'arrived', 'damaged', 'заказ', 'доставлен', 'вовремя',
                                                 '顾客', '要求', 'warehouse', 'invoice', 'tracking', 'number', 'and', 'courier',
                                                 'signed', 'by', 'neighbour', 'returned', 'to', 'sender'])[1 + (hashint8extended(p * 256 + w, seed + 4) & 31)], ' ' order by w) as paragraph
                    from generate_series(1, 256) as p
                    cross join lateral generate_series(1, 80 + (hashint8extended(p, seed + 5) & 63)) as w
                    group by p) as words) as paragraphs;
  perform setval(pg_get_serial_sequence('orders', 'id'), greatest(row_count, 1));
  analyze orders;
  return row_count;
end
$$
language plpgsql
volatile;
