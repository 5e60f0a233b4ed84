-- Untimed, on the target before every run: one row no source holds (Lab.MakeTargetDifferAsync).
truncate users;
insert into users (id, name, patronymic, surname, created_at, is_active)
values (gen_random_uuid(), 'sentinel row left by the lab before this run', '', '', timestamp '2000-01-01', false);
