-- Row versions the target wrote more than once (see replication-audit.sql): each one is a change applied twice.
select count(*) from (select id, name from applied_log group by id, name having count(*) > 1) twice
