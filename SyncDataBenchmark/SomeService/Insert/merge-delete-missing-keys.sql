-- A whole-table merge without a staging table (Linq2DBMerge): the target's rows whose key is not among the keys the
-- merge received (the source's whole table), matched on every key column. One parameter per key column (MergeSql fills
-- them in): the values received as an array of the CLR type the row class holds, cast to the column's own type so they
-- compare as the key does (char(n) as char(n), a domain as its domain).
delete from {table} t
where not exists (select from unnest({received}) k({received_columns}) where {received_match})
