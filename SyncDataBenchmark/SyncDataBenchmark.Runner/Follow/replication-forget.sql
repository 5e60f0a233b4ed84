-- The target forgets the LSN an earlier run stored, so the follower starts anew with its own first copy (a stored LSN
-- would make it resume from a slot that run dropped).
delete from replication_watermarks where table_name = '{{table}}';
