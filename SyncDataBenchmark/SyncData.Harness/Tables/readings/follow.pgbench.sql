-- NpgsqlReplication's write load on readings (--follow; docs/replication.md), one pgbench transaction per run:
--   pgbench -n -f SyncData.Harness/Tables/readings/follow.pgbench.sql -D max_order=<highest "order"> -R <transactions/s> -T <seconds> -c 2 <source database>
-- Mixed as users': 40% insert 1–5 rows, 40% update 1–5 rows, 20% delete 1–2 rows. The rows are found by their whole
-- key: the seed gives "order" g the site g % 7 and the "Sensor" g % 13, so a random run of "order"s names its keys
-- and the primary key's index finds each, at any table size; an inserted copy takes a new "order" from the identity
-- (the seed sets it past its rows) and the site and "Sensor" that "order" names, so later loads find it the same way.
-- The runner reads the lines below (FollowScript): 0.4 × 3 + 0.4 × 3 + 0.2 × 1.8 (a run of "order"s can hold fewer
-- rows once some were deleted), the asked mix of inserted, updated and deleted rows per transaction, and max_order.
-- rows per transaction: 2.76
-- mix: insert 1.2, update 1.2, delete 0.36
-- define max_order: select coalesce(max("order"), 1) from readings
\set op random(1, 10)
\set rows random(1, 5)
\set id random(1, :max_order)
BEGIN;
\if :op <= 4
insert into readings (site, "Sensor", "order", taken_on, taken_at, "Value", gain, level, every, source_addr, unit, valid, note)
select n % 7, n % 13, n, taken_on, taken_at, "Value", gain, level, every, source_addr, unit, valid, note
from (select nextval(pg_get_serial_sequence('readings', 'order')) as n, r.* from readings r
      where (site, "Sensor", "order") in (select g % 7, g % 13, g from generate_series(:id, :id + :rows - 1) g)) copied;
\elif :op <= 8
update readings set gain = gain + 1, level = (coalesce(level, 0) + 1) % 1000, note = 'load ' || :client_id || ' ' || txid_current()
where (site, "Sensor", "order") in (select g % 7, g % 13, g from generate_series(:id, :id + :rows - 1) g);
\else
delete from readings where (site, "Sensor", "order") in (select g % 7, g % 13, g from generate_series(:id, :id + least(:rows, 2) - 1) g);
\endif
END;
