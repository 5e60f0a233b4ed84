-- The target table's primary key (TunedLoad): its name, quoted for use as an identifier, and its definition as
-- PostgreSQL prints it, so the key dropped before the COPY is re-added exactly as the schema made it. $1: the table.
select quote_ident(conname), pg_get_constraintdef(oid)
from pg_constraint
where conrelid = $1::regclass and contype = 'p'
