-- NpgsqlReplication's write load on orders (docs/replication.md):
--   pgbench -n -f sql/follow/orders.pgbench.sql -D max_id=<highest order id> -R <transactions/s> -T <seconds> -c 2 <source database>
-- Half the transactions update item_count and status only, leaving the TOASTed columns (note, attributes,
-- attachment) unchanged: pgoutput sends those as 'u'. The rest: 25% insert 1–5 rows (a copy of an existing order with
-- a new id), 15% update the note, 10% delete 1–2 rows (the rows per transaction below: the runner's FollowLoad). Rows
-- are picked by a key range from a random id, so a transaction costs the same at any table size.
-- The runner reads the lines below (FollowScript): 0.9 × 3 + 0.1 × 1.8 (a key range can hold fewer ids), the asked mix
-- of inserted, updated and deleted rows per transaction (0.25 × 3; 0.5 × 3 + 0.15 × 3; 0.1 × 1.8), and max_id from the
-- source before the load starts.
-- rows per transaction: 2.88
-- mix: insert 0.75, update 1.95, delete 0.18
-- define max_id: select coalesce(max(id), 1) from orders
\set op random(1, 20)
\set rows random(1, 5)
\set id random(1, :max_id)
BEGIN;
\if :op <= 10
update orders set item_count = item_count + 1, status = 'shipped' where id between :id and :id + :rows - 1;
\elif :op <= 15
insert into orders (customer_id, status, total, discount, exchange_rate, currency, placed_at, delivery_date, tags, attributes, note, attachment, item_count, is_gift, shipping_address)
select customer_id, status, total, discount, exchange_rate, currency, now(), delivery_date, tags, attributes, note, attachment, item_count, is_gift, shipping_address
from orders where id between :id and :id + :rows - 1;
\elif :op <= 18
update orders set note = 'load ' || :client_id || ' ' || txid_current() where id between :id and :id + :rows - 1;
\else
delete from orders where id between :id and :id + least(:rows, 2) - 1;
\endif
END;
