-- seed_readings(n): n rows of readings, the same n rows every time. Every tenth row holds NULL in every nullable
-- column; the others cycle through NaN, ±Infinity, intervals with months, IPv4 and IPv6, empty and unbounded ranges.
create or replace function seed_readings(row_count integer)
returns void
language sql
as $$
  truncate readings;
  insert into readings (site, "Sensor", "order", taken_on, taken_at, "Value", gain, level, every, source_addr, unit, valid, note)
  select
    (g % 7)::smallint,
    g % 13,
    g,
    case when g % 10 <> 0 then date '2020-02-29' + (g % 3000) end,
    case when g % 10 <> 0 then time '00:00' + make_interval(secs => (g % 86400) + (g % 999999) / 1e6) end,
    case when g % 10 <> 0 then (case g % 10 when 1 then 'NaN' when 2 then 'Infinity' when 3 then '-Infinity' else (g * 0.1)::text end)::double precision end,
    case when g % 10 <> 0 then (case g % 10 when 4 then 'NaN' when 5 then '-Infinity' when 6 then 'Infinity' else ((g % 1000) / 7.0)::text end)::real end,
    case when g % 10 <> 0 then (g % 1001)::smallint end,
    case when g % 10 <> 0 then make_interval(months => g % 14, days => g % 31, secs => (g % 3600) + (g % 1000000) / 1e6) end,
    case when g % 10 = 0 then null
         when g % 3 = 0 then ('2001:db8::' || to_hex(g % 65536))::inet
         else ('10.' || (g / 65536) % 256 || '.' || (g / 256) % 256 || '.' || g % 256 || '/' || (24 + g % 9))::inet end,
    case when g % 10 <> 0 then (array['m', 'kg', '°C'])[g % 3 + 1]::char(3) end,
    case when g % 10 = 0 then null
         when g % 10 = 7 then 'empty'::tstzrange
         when g % 10 = 8 then tstzrange(timestamptz '2024-01-01 00:00+00' + g * interval '1 minute', null)
         else tstzrange(timestamptz '2024-01-01 00:00+00' + g * interval '1 minute', timestamptz '2024-01-01 00:00+00' + (g + 60) * interval '1 minute') end,
    case when g % 10 <> 0 then 'reading ' || g || (case when g % 4 = 0 then E'\ttab, "quote", ä' else '' end) end
  from generate_series(1, row_count) g;
  -- The identity past the rows' explicit "order"s, so an insert that takes it (the follow load) gets a new key.
  select setval(pg_get_serial_sequence('readings', 'order'), greatest(row_count, 1));
$$;
