-- The users table as the EF fetches may send it (SendableDbContext): created_at checked row by row, cheap comparisons
-- on the way that works. DateTime holds years 1-9999, and 0001-01-01 00:00:00 is DateTime.MinValue, which Npgsql
-- writes as -infinity: any other value is replaced by a cast of a message naming the row, the column and the value,
-- which fails when the row is read. {refusal} ends every refusal, as in sendable-orders.sql.
select id, name, patronymic, surname,
       case when created_at > timestamp '0001-01-01' and created_at < timestamp '10000-01-01'
              or created_at in (timestamp 'infinity', timestamp '-infinity') then created_at
            else ('row ' || id || ': created_at = ' || created_at || ' cannot be read into a .NET DateTime unambiguously (years 1-9999; 0001-01-01 00:00:00 is DateTime.MinValue, which means -infinity){refusal}')::timestamp end as created_at,
       is_active
from users
