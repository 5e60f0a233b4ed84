select seed_orders($1, 1)
