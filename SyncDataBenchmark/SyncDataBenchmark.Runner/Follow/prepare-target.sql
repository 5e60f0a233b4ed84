-- The target reads its commit times from the WAL (applied-times.sql): pg_walinspect, a contrib extension, in the lab's target database.
create extension if not exists pg_walinspect;
