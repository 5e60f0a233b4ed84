-- A team's table of intervals (GeneratedRowTableTests): the typed writers carry interval as NodaTime's Period, which
-- keeps months apart from days and time as PostgreSQL does (but folds days and time together: such a value is refused
-- by name, GeneratedRowTableTests). Awkward values: months alone, months and days of opposite signs, days and time of
-- one sign, a microsecond, 23:59:59.999999, 178 million years (months near int32's end), zero, NULL; a second interval
-- column NOT NULL.
create table "Team Sales"."Spans" (
    id integer primary key,
    span interval,
    "Lead Time" interval not null
);
insert into "Team Sales"."Spans" values
    (1, '1 mon 2 days 03:04:05.678901', '0'),
    (2, '-1 year -3 mons', '-3 days -04:00:00.000001'),
    (3, '1 mon -1 day', '-178000000 years'),
    (4, null, '23:59:59.999999'),
    (5, '178000000 years 11 mons', '-1 mon 30 days 00:00:00.000001');
