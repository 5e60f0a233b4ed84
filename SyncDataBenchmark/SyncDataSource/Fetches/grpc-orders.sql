-- The orders table as GrpcStream reads it (GrpcStreamService, SyncData.Grpc/OrdersMessages.Fill): every value as
-- PostgreSQL holds it, nothing refused here. numeric and the enum as PostgreSQL prints them (Npgsql has no exact .NET
-- type for every numeric), timestamptz and date read by Npgsql as their raw microseconds and days, and the array's
-- shape beside its elements (Npgsql's string?[] keeps neither its lower bound nor its dimensions), before it.
select id, customer_id, status::text, total::text, discount::text, exchange_rate::text, currency, placed_at, delivery_date,
       array_ndims(tags), array_lower(tags, 1), tags,
       attributes, note, attachment, item_count, is_gift, shipping_address
from orders
