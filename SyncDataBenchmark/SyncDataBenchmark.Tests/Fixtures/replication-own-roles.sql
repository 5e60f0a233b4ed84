-- A user's database for --follow by opt-in (run as a superuser in it, after team-table.sql): roles that each lack
-- some right --follow-install or --follow-publication needs (cluster-wide, made once), their grants in this database,
-- and a publication of the table (team_lines, made here by the superuser). follow_owner: REPLICATION, owns the table, CREATE on the database
-- (all --follow-install needs); follow_replicator: REPLICATION and SELECT only (enough with a publication named);
-- follow_reader: SELECT only; follow_nobody: may look into the schema, nothing more.
do $$
declare r text;
begin
  foreach r in array array['follow_owner', 'follow_replicator', 'follow_reader', 'follow_nobody'] loop
    begin
      execute format('create role %I login', r);
    exception when duplicate_object then null;
    end;
  end loop;
end
$$;
alter role follow_owner replication;
alter role follow_replicator replication;
alter table "Team Sales"."Order Lines" owner to follow_owner;
grant usage on schema "Team Sales" to follow_owner, follow_replicator, follow_reader, follow_nobody;
grant select on "Team Sales"."Order Lines" to follow_replicator, follow_reader;
grant usage on type "Team Sales".mood, "Team Sales".positive_int to follow_owner, follow_replicator, follow_reader;
do $$ begin execute format('grant create on database %I to follow_owner', current_database()); end $$;
create publication team_lines for table "Team Sales"."Order Lines";
