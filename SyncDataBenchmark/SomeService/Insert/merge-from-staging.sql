-- Every staged row into the target: a key the target lacks is inserted; a key it holds is updated only when the row
-- differs, compared as each row's text form over the COPY columns (what the checksum reads: numeric keeps its scale, so
-- 1.50 is not 1.5, while "=" would call them equal; jsonb its canonical text), so an unchanged row is not rewritten.
-- {overriding} is OVERRIDING SYSTEM VALUE when a column is GENERATED ALWAYS AS IDENTITY (its value is the source's).
-- The affected count is the rows inserted or updated.
merge into {table} t
using {staging} s on {key_match}
when matched and row({target_columns})::text is distinct from row({staged_columns})::text then
  update set {assignments}
when not matched then
  insert ({columns}) {overriding}values ({staged_columns})
