-- A change merge: the keys the source deleted since the watermark. $1: those keys as text (uuid or bigint as the source
-- prints them), cast to the key's type so the primary key's index finds them.
delete from {table} t
where t.{key} = any ($1::text[]::{key_type}[])
