-- --outage for the native subscription: disabled, its apply worker and walsender stop and the slot keeps the WAL;
-- enabled again, it streams from the slot's confirmed position. {{action}}: disable or enable.
alter subscription {{prefix}} {{action}};
