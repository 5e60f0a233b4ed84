-- What a follow run left in this database: slots (cluster-wide), publications and subscriptions named after the prefix.
select array_to_string(array(
    select 'slot ' || slot_name from pg_replication_slots where slot_name like '{{prefix}}%'
    union all select 'publication ' || pubname from pg_publication where pubname like '{{prefix}}%'
    union all select 'subscription ' || subname from pg_subscription where subname like '{{prefix}}%'), ', ');
