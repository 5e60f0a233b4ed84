-- Test data generator, reproducing the original write-up's data set.
-- Usage:  psql -d source -f sql/schema.sql -f sql/generate.sql -c 'select seed_users(1000000)'
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
