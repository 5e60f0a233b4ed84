-- readings changed by every kind of change, keyed on its whole key (site, "Sensor", "order"): an update of a non-key
-- column leaving the TOASTed note unchanged ('u'), rows deleted, a row inserted whose site and "Sensor" equal a deleted
-- row's ("order" alone tells them apart), and an update that moves the key of a row whose note is not TOASTed (a moved key with a TOASTed value unchanged is a named
-- failure: docs/replication.md).
update readings set gain = gain + 1 where "order" <= 30;
delete from readings where "order" between 31 and 40;
insert into readings (site, "Sensor", "order", note) select site, "Sensor", "order" + 100000, 'new ' || "order" from readings where "order" between 41 and 45;
delete from readings where "order" in (46, 47);
insert into readings (site, "Sensor", "order", note) values (46 % 7, 46 % 13, 47, 'same site and Sensor as order 46, order 47');
update readings set site = site + 100 where "order" = 148;
