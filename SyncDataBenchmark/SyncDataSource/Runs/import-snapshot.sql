-- The first statement of a request's REPEATABLE READ transaction: read the run's exported snapshot. SET TRANSACTION
-- SNAPSHOT takes no parameters; RunSnapshots puts in the id it got from pg_export_snapshot(), checked for shape.
SET TRANSACTION SNAPSHOT '{0}'
