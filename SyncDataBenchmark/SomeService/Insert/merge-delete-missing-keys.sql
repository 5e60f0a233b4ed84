-- A whole-table merge without a staging table (Linq2DBMerge): the target's rows whose key is not among the keys the
-- merge received (the source's whole table). $1: those keys as text, cast to the key's type.
delete from {table} t
where not exists (select from unnest($1::text[]::{key_type}[]) k(key) where k.key = t.{key})
