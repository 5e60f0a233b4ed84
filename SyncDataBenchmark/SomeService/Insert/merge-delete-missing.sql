-- A whole-table merge: the target's rows whose key is not among the staged rows (the source's whole table) are gone
-- from the source. PostgreSQL 15 has no MERGE … WHEN NOT MATCHED BY SOURCE (17+), hence a statement of its own.
delete from {table} t
where not exists (select from {staging} s where {key_match})
