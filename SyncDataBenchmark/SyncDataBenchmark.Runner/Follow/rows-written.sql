-- The rows inserted, updated and deleted in the table so far (the cumulative statistics, flushed by each backend at its exit at the latest).
select n_tup_ins + n_tup_upd + n_tup_del from pg_stat_user_tables where relid = '{{table}}'::regclass;
