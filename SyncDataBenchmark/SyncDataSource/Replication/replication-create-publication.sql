-- The publication pgoutput decodes for the follower: this table only. Made before the slot, so every change after the
-- slot's consistent point is decoded against it.
create publication {publication} for table {table}
