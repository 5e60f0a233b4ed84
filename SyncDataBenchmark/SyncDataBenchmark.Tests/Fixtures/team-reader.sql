-- A role that can only read a team's table (OwnTableBenchTests): it logs in, may look into the schema, and SELECT the
-- table; nothing else (PostgreSQL 15 and later grant no CREATE on public to everyone).
create role team_reader login;
grant usage on schema "Team Sales" to team_reader;
grant select on "Team Sales"."Order Lines" to team_reader;
