-- The target forgets the LSN an earlier run stored, so the follower starts anew with its own first copy (a stored LSN
-- would make it resume from a slot that run dropped). {{name}}: the table's name as the follower stores it, a literal.
delete from replication_watermarks where table_name = {{name}};
