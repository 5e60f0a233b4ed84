-- Untimed: the subscription, created disabled and without a copy (the target is made equal to the source next, by
-- the runner); enabling it is the timed part. A subscription in sync whose worker is stopped while the source changes.
\getenv src_conninfo SRC_CONNINFO
drop subscription if exists {{subscription}};
create subscription {{subscription}} connection :'src_conninfo' publication {{subscription}}
    with (create_slot = false, slot_name = '{{subscription}}', copy_data = false, enabled = false);
