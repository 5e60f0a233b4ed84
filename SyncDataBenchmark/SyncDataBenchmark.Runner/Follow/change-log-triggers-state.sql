-- Whether the source table's change-log row triggers were on (true), off (false) or partly on (null), read from the
-- catalog after the load: the record says what the writers ran with, not what the runner meant to set.
select case when bool_and(tgenabled <> 'D') then true when bool_or(tgenabled <> 'D') then null else false end
from pg_trigger
where tgrelid = '{{table}}'::regclass and tgname in ('{{name}}_log_inserts', '{{name}}_log_updates', '{{name}}_log_deletes');
