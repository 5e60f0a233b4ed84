-- NpgsqlReplication's write load on users (docs/replication.md), one pgbench transaction per run of this script:
--   pgbench -n -f sql/follow/users.pgbench.sql -R <transactions/s> -T <seconds> -c 2 <source database>
-- Mixed: 40% insert 1–5 rows, 40% update 1–5 rows, 20% delete 1–2 rows (rows/s is -R times the rows per transaction
-- below: the runner's FollowLoad). The rows updated and deleted are picked by TABLESAMPLE SYSTEM_ROWS (tsm_system_rows,
-- PostgreSQL's contrib; the runner installs it on the source: prepare-source.sql): a random page's first rows, exactly
-- as many as asked at any table size, without sorting the table. TABLESAMPLE SYSTEM (0.1) returned no row in 200 of
-- 200 tries on a 10,000-row table (about 100 pages: 0.1% of them is none), so a small table's load was inserts only.
-- The runner reads the lines below (FollowScript): 0.4 × 3 + 0.4 × 3 + 0.2 × 1.8 (min(1–5, 2)), and the asked mix of
-- inserted, updated and deleted rows per transaction.
-- rows per transaction: 2.76
-- mix: insert 1.2, update 1.2, delete 0.36
\set op random(1, 10)
\set rows random(1, 5)
BEGIN;
\if :op <= 4
insert into users (id, name, patronymic, surname, created_at, is_active)
select gen_random_uuid(), 'load-' || :client_id || '-' || g, 'p', 's', localtimestamp, true from generate_series(1, :rows) g;
\elif :op <= 8
update users set name = 'upd-' || :client_id || '-' || txid_current(), is_active = not is_active
where id in (select id from users tablesample system_rows (:rows));
\else
delete from users where id in (select id from users tablesample system_rows (least(:rows, 2)));
\endif
END;
