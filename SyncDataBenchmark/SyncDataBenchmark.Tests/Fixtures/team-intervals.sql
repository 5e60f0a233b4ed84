-- A team's table of intervals (GeneratedRowTableTests): the typed writers carry interval as NodaTime's Period, which
-- keeps months, days and the time apart as PostgreSQL does. Awkward values: months alone, signs mixed between the
-- three parts, a microsecond, 178 million years (months near int32's end), two million hours (the time part near
-- what Period holds in nanoseconds), zero, NULL; a second interval column NOT NULL.
create table "Team Sales"."Spans" (
    id integer primary key,
    span interval,
    "Lead Time" interval not null
);
insert into "Team Sales"."Spans" values
    (1, '1 mon 2 days 03:04:05.678901', '0'),
    (2, '-1 year -3 mons', '1 day -1 hour'),
    (3, '1 mon -1 day 00:00:00.000001', '-178000000 years'),
    (4, null, '2000000 hours'),
    (5, '178000000 years 11 mons', '-2000000 hours -1 mon 30 days');
