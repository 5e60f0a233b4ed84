-- Untimed, on the target before every run: one row no source holds (Lab.MakeTargetDifferAsync); seed_orders numbers from 1.
truncate orders;
insert into orders (id, customer_id, status, total, exchange_rate, currency, placed_at, tags, attributes, item_count, is_gift, shipping_address)
overriding system value
values (-1, gen_random_uuid(), 'pending', 0, 0, 'XXX', timestamptz '2000-01-01 00:00:00+00', '{}',
        '{"sentinel": "row left by the lab before this run"}', 0, false, 'sentinel row left by the lab before this run');
