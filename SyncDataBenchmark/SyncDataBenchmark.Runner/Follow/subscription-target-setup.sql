-- The target emptied (its sentinel row goes too), then the subscription: its own first copy (copy_data), then the stream.
-- {{conninfo}}: the source as a libpq string literal.
drop subscription if exists {{prefix}};
truncate {{table}};
create subscription {{prefix}} connection {{conninfo}} publication {{prefix}}
    with (create_slot = false, slot_name = '{{prefix}}', copy_data = true);
