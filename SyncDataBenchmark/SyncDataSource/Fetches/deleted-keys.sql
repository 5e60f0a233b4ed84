-- The keys deleted since the watermark $1 (deleted_{table}, sql/change-tracking.sql), as PostgreSQL prints them.
select key::text from deleted_{table}($1::pg_snapshot) as key
