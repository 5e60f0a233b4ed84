-- NpgsqlReplication's write load on users (docs/replication.md), one pgbench transaction per run of this script:
--   pgbench -n -f sql/follow/users.pgbench.sql -R <transactions/s> -T <seconds> -c 2 <source database>
-- Mixed: 40% insert 1–5 rows, 40% update 1–5 rows, 20% delete 1–2 rows (rows/s is -R times the rows per transaction
-- below: the runner's FollowLoad). The rows updated and deleted are picked from a few random pages (TABLESAMPLE SYSTEM), not by
-- sorting the table, so a transaction costs the same at any table size.
-- The runner reads the line below (FollowScript): 0.4 × 3 + 0.4 × 3 + 0.2 × 1.8 (min(1–5, 2)).
-- rows per transaction: 2.76
\set op random(1, 10)
\set rows random(1, 5)
BEGIN;
\if :op <= 4
insert into users (id, name, patronymic, surname, created_at, is_active)
select gen_random_uuid(), 'load-' || :client_id || '-' || g, 'p', 's', localtimestamp, true from generate_series(1, :rows) g;
\elif :op <= 8
update users set name = 'upd-' || :client_id || '-' || txid_current(), is_active = not is_active
where id in (select id from users tablesample system (0.1) limit :rows);
\else
delete from users where id in (select id from users tablesample system (0.1) limit least(:rows, 2));
\endif
END;
