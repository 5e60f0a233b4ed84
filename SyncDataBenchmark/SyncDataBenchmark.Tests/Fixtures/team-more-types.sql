-- A team's tables of the types the generator maps through NpgsqlCopy's decoder beyond team-odd-types.sql's
-- (GeneratedRowTableTests, docs/own-table.md's coverage table), each with NULL in every nullable column.
-- "Money Bits": money as decimal (its ends, a cent, negative), bit(1), bit(8) and varbit as BitArray (empty, 70 bits,
-- not a whole byte). "Arrays": arrays of the plain types as T?[] (NULL elements, empty arrays, NaN and ±Infinity,
-- numeric of 28 decimal places, NaN refused by name, timestamptz ±infinity, jsonb documents; arrays of numeric and of the character types in a table of their own). "Ranges": the built-in ranges and
-- multiranges as NpgsqlRange<T> and NpgsqlRange<T>[] (empty, unbounded either side, inclusive bounds, infinity as a
-- bound's value, an empty multirange).
create table "Team Sales"."Money Bits" (id integer primary key, cash money, flag bit(1), octet bit(8), bits varbit, short bit varying(10));
insert into "Team Sales"."Money Bits" values
    (1, '92233720368547758.07', B'1', B'10100101', B'', B'1'),
    (2, '-92233720368547758.08', B'0', B'00000000', B'1010101010101010101010101010101010101010101010101010101010101010101011', B'0000000001'),
    (3, null, null, null, null, null),
    (4, '0.01', B'1', B'11111111', B'101', B''),
    (5, '-1.5', B'0', B'00000001', B'0', B'1111111111');
create table "Team Sales"."Arrays" (id integer primary key, ints integer[], bigs bigint[], smalls smallint[],
    floats double precision[], reals real[], flags boolean[], ids uuid[], stamps timestamptz[], at timestamp[], days date[], times time[],
    docs jsonb[], raw json[]);
insert into "Team Sales"."Arrays" values
    (1, '{1,NULL,-2147483648,2147483647}', '{9223372036854775807,-9223372036854775808}', '{-32768,32767,NULL}',
        '{NaN,Infinity,-Infinity,-0,5e-324}', '{NaN,1.5,NULL}', '{true,false,NULL}',
        '{00000000-0000-0000-0000-000000000000,NULL,ffffffff-ffff-ffff-ffff-ffffffffffff}', '{infinity,-infinity,"2024-02-29 12:34:56.789012+00",NULL}',
        '{"0001-01-01 00:00:01","9999-12-31 23:59:59.999999"}', '{2024-02-29,infinity,NULL}', '{00:00,23:59:59.999999,NULL}',
        array['{"a": [1, {"b": null}]}', null, '"Zoë"', '[]']::jsonb[], array['{"kept":  "as written"}', null]::json[]),
    (2, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}'),
    (3, null, null, null, null, null, null, null, null, null, null, null, null, null),
    (4, '{NULL}', '{0}', '{0}', '{0}', '{0}', '{false}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}', '{NULL}');
-- Arrays of numeric and of the character types apart: EFBulk is refused them (EFCore.BulkExtensions hands Npgsql the
-- element's store type, "numeric" for numeric[] and numeric(12,2)[], "character" for char(2)[], which Npgsql takes for
-- the element type, not an array of it).
create table "Team Sales"."Bulk Arrays" (id integer primary key, codes char(2)[], names varchar(20)[], amounts numeric(12,2)[], nums numeric[]);
insert into "Team Sales"."Bulk Arrays" values
    (1, '{ab,"a ",NULL}', '{"Zoë","NULL",NULL,""}', '{1.50,-0.01,NULL,9999999999.99}', '{0.1234567890123456789012345678,-1,NULL}'),
    (2, '{}', '{}', '{}', '{}'), (3, null, null, null, null);
create table "Team Sales"."Ranges" (id integer primary key, r4 int4range, r8 int8range, rn numrange, rts tsrange, rtz tstzrange, rd daterange,
    m4 int4multirange, m8 int8multirange, mn nummultirange, mts tsmultirange, mtz tstzmultirange, md datemultirange);
insert into "Team Sales"."Ranges" values
    (1, '[1,10)', '[-9223372036854775808,9223372036854775807)', '[1.5,2.5]', '["2024-01-01 00:00","2024-01-02 00:00")',
        '("2024-01-01 00:00+00",infinity]', '[2024-02-29,infinity)',
        '{[1,3),[5,8)}', '{[1,2)}', '{[0.1,0.2],(0.3,)}', '{["2024-01-01",)}', '{(,"2024-01-01 00:00+00")}', '{[2024-01-01,2024-02-01),[2024-03-01,)}'),
    (2, 'empty', 'empty', 'empty', 'empty', 'empty', 'empty', '{}', '{}', '{}', '{}', '{}', '{}'),
    (3, null, null, null, null, null, null, null, null, null, null, null, null),
    (4, '(,)', '(,5]', '(,)', '(,"2024-01-01 00:00"]', '[-infinity,)', '(,)', '{(,)}', '{(,)}', '{(,)}', '{(,)}', '{(,)}', '{(,)}');
-- "Search": tsvector and tsquery as Npgsql's NpgsqlTsVector and NpgsqlTsQuery (an empty tsvector; weights A–D,
-- positions up to 16383, a lexeme without positions, a quote, a backslash, non-ASCII; prefix, weighted, negated, phrase
-- and distance operators nested, whose operands' order matters). Not an empty tsquery: PostgreSQL 15's tsqueryrecv
-- refuses the one its tsquerysend writes, so no binary COPY carries it (named, GeneratedRowTableTests).
create table "Team Sales"."Search" (id integer primary key, doc tsvector, query tsquery);
insert into "Team Sales"."Search" values
    (1, $$'a' 'fat':1A 'cat':2,3B,4C,5 'it''s':16383 'back\\slash':9 'Zoë':7A$$,
        $$'fat' & ( 'cat':AB | !'rat':* ) <-> 'sat' <3> 'mat':*D | !!'b\\c'$$),
    (2, '', 'x:*A'),
    (3, null, null),
    (4, to_tsvector('english', 'The quick brown foxes jumped over the lazy dogs'), to_tsquery('english', '!(quick & fox) | brown:* <2> dog'));
-- "Stamps": timestamps and dates at the edges of what DateTime and DateOnly hold: year 5000, the last finite
-- microsecond before year 10000 (not DateTime.MaxValue, which Npgsql writes as infinity: a finite extreme must stay
-- finite), the first after 0001-01-01 00:00:00 and the day after 0001-01-01 (DateTime/DateOnly.MinValue are written as
-- -infinity), ±infinity either way round, microseconds. BC and past 9999 are refused by name (GeneratedRowTableTests).
create table "Team Sales"."Stamps" (id integer primary key, tz timestamptz, ts timestamp, d date);
insert into "Team Sales"."Stamps" values
    (1, '5000-06-15 12:34:56.789012+00', '5000-06-15 12:34:56.789012', '5000-06-15'),
    (2, '9999-12-31 23:59:59.999999+00', '9999-12-31 23:59:59.999999', '9999-12-30'),
    (3, '0001-01-01 00:00:00.000001+00', '0001-01-01 00:00:00.000001', '0001-01-02'),
    (4, 'infinity', '-infinity', 'infinity'),
    (5, '-infinity', 'infinity', '-infinity'),
    (6, null, null, null);
