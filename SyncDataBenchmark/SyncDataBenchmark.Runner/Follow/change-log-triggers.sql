-- The lab's change-log row triggers (sql/change-tracking.sql) on the source table, enabled or disabled for a follow run:
-- only the polled change log reads them, so the other mechanisms' writers must not pay for them (the cost the runs
-- compare). The truncation trigger stays: nothing truncates the source during a run. {{action}}: enable or disable.
alter table {{table}} {{action}} trigger {{name}}_log_inserts;
alter table {{table}} {{action}} trigger {{name}}_log_updates;
alter table {{table}} {{action}} trigger {{name}}_log_deletes;
