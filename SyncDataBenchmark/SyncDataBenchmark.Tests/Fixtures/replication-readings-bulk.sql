-- One transaction of more rows than the follower's one-statement road takes (ChangeApplier.OneStatementRows): the
-- staged road (COPY into the staging table, MERGE on the whole key), with deletes by the whole key, and TOASTed notes
-- (orders 51–60) left unchanged ('u').
update readings set level = (level + 1) % 1000, gain = gain * 2 where "order" > 50;
delete from readings where "order" between 90 and 99;
