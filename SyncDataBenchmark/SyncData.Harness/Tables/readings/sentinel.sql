-- Untimed, on the target before every run: one row no source holds (Lab.MakeTargetDifferAsync).
truncate readings;
insert into readings (site, "Sensor", "order", note) values (-1, -1, -1, 'sentinel row left by the lab before this run');
