select seed_readings($1)
