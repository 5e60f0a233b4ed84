-- The orders table as ArrowStream's source reads it (OrdersArrowRows): numerics and jsonb as PostgreSQL's text (carried
-- exactly, NaN and ±Infinity included), the enum as its label, placed_at as Npgsql's raw int64 microseconds and
-- delivery_date as its raw int32 days. What Arrow's columns cannot carry is replaced by a cast of a message naming the
-- row, the column and the value, which fails when the row is read. {refusal} is ArrowFormat.Refusal.
select id, customer_id, status::text, total::text, discount::text, exchange_rate::text, currency,
       -- timestamp[us] counts from 1970: after {last} the shift overflows int64 or meets the value meaning infinity.
       case when placed_at <= timestamptz '{last}+00' or placed_at = timestamptz 'infinity'
                then placed_at
            else ('row ' || id || ': placed_at = ' || (placed_at at time zone 'UTC') || '+00 {refusal} timestamp[us, UTC]: after {last} it overflows int64 or meets the value that means infinity')::timestamptz end as placed_at,
       delivery_date,
       -- list<utf8> has no lower bound and one dimension: another lower bound or more dimensions would be lost.
       case when cardinality(tags) = 0 or array_ndims(tags) = 1 and array_lower(tags, 1) = 1
                then tags
            else ('row ' || id || ': tags = ' || tags::text || ' {refusal} list<utf8>: one dimension from 1')::text[] end as tags,
       attributes::text, note, attachment, item_count, is_gift, shipping_address
from orders
