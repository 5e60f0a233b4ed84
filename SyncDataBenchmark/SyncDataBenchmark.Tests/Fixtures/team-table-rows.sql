-- More rows for a team's own table (Fixtures/team-table.sql), for OwnTableBenchTests: 2,000 of region 3 beside the four
-- awkward ones, every value through an expression of g so that no two rows are alike.
insert into "Team Sales"."Order Lines" (region, "order", ratio, score, due, span, code, qty, mood, total, note, tags, doc, raw, seen, "select", customer)
select 3, g, g / 7.0, g * 1.5, date '2024-01-01' + g, make_interval(months => g % 13, secs => g), lpad(g::text, 4, '0'), g % 999 + 1,
       (array['sad', 'ok', 'happy'])[g % 3 + 1]::"Team Sales".mood, g * 0.01, repeat('x', g % 50), array[g::text, null],
       jsonb_build_object('g', g), decode(lpad(to_hex(g), 8, '0'), 'hex'), timestamptz '2024-01-01 00:00+00' + g * interval '1 minute',
       timestamp '2024-01-01' - g * interval '1 second', 1 + g % 2
from generate_series(1, 2000) as g;
-- The catalog's estimate (reltuples) the runner's estimate reads, as a team's autovacuum would have left it.
analyze "Team Sales"."Order Lines";
