-- Every staged row into the target: a key the target lacks is inserted; a key it holds is updated only when the row
-- differs, compared as each row's text form (what the checksum reads: numeric keeps its scale, so 1.50 is not 1.5,
-- while "=" would call them equal; jsonb its canonical text), so an unchanged row is not rewritten. The affected count
-- is the rows inserted or updated.
merge into {table} t
using {staging} s on s.{key} = t.{key}
when matched and row(t.*)::text is distinct from row(s.*)::text then
  update set {assignments}
when not matched then
  insert ({columns}) values ({staged_columns})
