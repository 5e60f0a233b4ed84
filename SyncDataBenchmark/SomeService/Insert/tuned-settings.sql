-- For the key's re-add (TunedLoad): enough to sort a million keys in memory. SET LOCAL ends with the run's transaction.
set local maintenance_work_mem = '1GB'
