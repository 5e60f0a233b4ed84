-- The users table as ArrowStream's source reads it (UsersArrowRows): created_at as Npgsql's raw int64 microseconds
-- (±infinity as int64 max/min), so no DateTime is in the way. timestamp[us] counts from 1970: after {last} the shift
-- overflows int64 or meets the value meaning infinity, so such a value is replaced by a cast of a message naming the
-- row, the column and the value, which fails when the row is read. {refusal} is ArrowFormat.Refusal.
select id, name, patronymic, surname,
       case when created_at <= timestamp '{last}' or created_at = timestamp 'infinity' then created_at
            else ('row ' || id || ': created_at = ' || created_at || ' {refusal} timestamp[us] (Unix epoch): after {last} it overflows int64 or meets the value that means infinity')::timestamp end as created_at,
       is_active
from users
