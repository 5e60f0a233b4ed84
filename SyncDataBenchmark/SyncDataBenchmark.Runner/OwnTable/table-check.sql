-- Before anything starts (--source-connection): the user's table as the database resolves the name, or null when it
-- has none of that name visible to the user. $1: the table as SQL names it.
select to_regclass($1)::text;
