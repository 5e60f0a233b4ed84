-- The staging table once merged: dropped now rather than at commit, so it holds no memory or disk while the run verifies.
drop table {staging}
