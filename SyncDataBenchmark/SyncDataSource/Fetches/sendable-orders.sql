-- The orders table as the EF fetches may send it (SendableDbContext): every value .NET's type for its column cannot
-- hold exactly is replaced by a cast of a message naming the row, the column and the value, which fails when the row
-- is read, before it is sent (EF Core reads each column through Npgsql into the Order's type). {refusal} ends every
-- refusal, filled in by SendableDbContext, which recognises the refusal by it.
select id, customer_id, status,
       -- numeric(19,4) holds only what decimal holds, but NaN, which PostgreSQL stores under any precision.
       case when total <> 'NaN' then total
            else ('row ' || id || ': total = ' || total || ' cannot be read into .NET''s decimal exactly (EF Core/Npgsql: a 96-bit integer over a power of ten up to 28, no NaN or ±Infinity){refusal}')::numeric end as total,
       case when discount is null or discount <> 'NaN' then discount
            else ('row ' || id || ': discount = ' || discount || ' cannot be read into .NET''s decimal exactly (EF Core/Npgsql: a 96-bit integer over a power of ten up to 28, no NaN or ±Infinity){refusal}')::numeric end as discount,
       -- decimal: a 96-bit integer over a power of ten up to 28; NaN and ±Infinity have no scale (null: refused).
       case when scale(exchange_rate) <= 28
                 and abs(exchange_rate) * power(10::numeric, scale(exchange_rate)) < 79228162514264337593543950336
                then exchange_rate
            else ('row ' || id || ': exchange_rate = ' || exchange_rate || ' cannot be read into .NET''s decimal exactly (EF Core/Npgsql: a 96-bit integer over a power of ten up to 28, no NaN or ±Infinity){refusal}')::numeric end as exchange_rate,
       currency,
       -- DateTime: years 1-9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql writes as -infinity.
       case when placed_at > timestamptz '0001-01-01 00:00:00+00' and placed_at < timestamptz '10000-01-01 00:00:00+00'
                 or placed_at in (timestamptz 'infinity', timestamptz '-infinity')
                then placed_at
            else ('row ' || id || ': placed_at = ' || (placed_at at time zone 'UTC') || '+00 cannot be read into a .NET DateTime unambiguously (EF Core/Npgsql: years 1-9999; 0001-01-01 00:00:00 is DateTime.MinValue, which means -infinity){refusal}')::timestamptz end as placed_at,
       -- DateOnly: 0001-01-01 and 9999-12-31 are DateOnly.MinValue/MaxValue, which Npgsql writes as ∓infinity.
       case when delivery_date is null or delivery_date > date '0001-01-01' and delivery_date < date '9999-12-31'
                 or delivery_date in (date 'infinity', date '-infinity')
                then delivery_date
            else ('row ' || id || ': delivery_date = ' || delivery_date || ' cannot be read into a .NET DateOnly unambiguously (EF Core/Npgsql: 0001-01-01 and 9999-12-31 are DateOnly.MinValue/MaxValue, which mean -infinity/infinity){refusal}')::date end as delivery_date,
       -- string?[]: one dimension from 1; another lower bound or more dimensions would be lost.
       case when cardinality(tags) = 0 or array_ndims(tags) = 1 and array_lower(tags, 1) = 1
                then tags
            else ('row ' || id || ': tags = ' || tags::text || ' cannot be read into a .NET string?[] (EF Core/Npgsql: one dimension from 1){refusal}')::text[] end as tags,
       attributes, note, attachment, item_count, is_gift, shipping_address
from orders
