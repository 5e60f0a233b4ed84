-- Makes the committed COPY fixtures (*.bin) beside this file, from a real PostgreSQL (15 was used):
--   cd SyncDataBenchmark/SyncDataBenchmark.Tests/Fixtures && psql -h 127.0.0.1 -U postgres -d SCRATCH -f ../../../sql/schema.sql -f make-fixtures.sql
-- Each file is exactly what `COPY users TO STDOUT (FORMAT binary)` sends, i.e. what SyncDataSource relays on /users/copy.
truncate users;
insert into users values
  ('00000000-0000-7000-8000-000000000001', 'Анна', 'Ивановна', 'Петрова', '2024-02-29 12:34:56.789012', true),
  ('00000000-0000-7000-8000-000000000002', E'tab\there', '', E'O''Brien \\N', '0001-01-01 00:00:00', false),
  ('ffffffff-ffff-7fff-bfff-ffffffffffff', 'emoji 😀', 'x', 'y', '9999-12-31 23:59:59.999999', true);
\copy users to 'users-3.bin' with (format binary)
truncate users;
-- 80,000 bytes of name: more than BinaryCopyReader's 64 KiB read buffer, so the value straddles buffers.
insert into users values ('00000000-0000-7000-8000-00000000000a', repeat('ж', 40000), 'p', 's', '2000-01-01', true);
\copy users to 'users-long-name.bin' with (format binary)
truncate users;
insert into users values ('00000000-0000-7000-8000-0000000000ff', 'Inf', 'I', 'Nity', 'infinity', true);
\copy users to 'users-infinity.bin' with (format binary)
truncate users;
insert into users values ('00000000-0000-7000-8000-0000000000fe', 'Far', 'F', 'Future', '10000-01-01 00:00:00', false);
\copy users to 'users-year-10000.bin' with (format binary)
truncate users;
