select seed_users($1)
