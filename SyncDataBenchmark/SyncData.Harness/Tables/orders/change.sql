select updated, inserted, deleted from change_orders($1, $2)
