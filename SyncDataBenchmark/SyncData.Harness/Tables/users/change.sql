select updated, inserted, deleted from change_users($1, $2)
