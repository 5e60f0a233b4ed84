-- A batch's deleted keys: the rows whose whole key (every primary key column) is among them. One parameter per key
-- column, its values as text (as pgoutput sends them), cast to the column's type so the primary key's index finds them.
delete from {table} t
using unnest({key_arrays}) as k({key_aliases})
where {key_found}
