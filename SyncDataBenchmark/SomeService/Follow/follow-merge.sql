-- A batch's final row of every key inserted or updated: each staged row updates the target's row of its key (matched
-- on every key column, keeping the columns named in _unchanged) or is inserted. A row with unchanged columns and no
-- target row is not inserted (its values were never sent): the follower compares the count with the rows staged and
-- fails naming it. {overriding}: OVERRIDING SYSTEM VALUE when a column is GENERATED ALWAYS AS IDENTITY.
merge into {table} t
using {staging} s on {key_match}
when matched then
  update set {assignments}
when not matched and s._unchanged is null then
  insert ({columns}) {overriding}values ({staged_columns})
