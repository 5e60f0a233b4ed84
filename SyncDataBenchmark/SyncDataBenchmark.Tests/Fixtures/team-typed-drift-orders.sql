-- The target's orders made to differ from the source before a typed merge (GeneratedRowTableTests): rows missing,
-- rows altered (another enum label), an extra one (a copy of a row under a new id).
delete from orders where id in (select id from orders order by id limit 5);
update orders set note = 'altered', total = total + 1, status = 'cancelled' where id in (select id from orders order by id desc limit 5);
insert into orders
select 999999999, customer_id, status, total, discount, exchange_rate, currency, placed_at, delivery_date, tags, attributes, note,
       attachment, item_count, is_gift, shipping_address
from orders order by id limit 1;
