-- The target's record of every row version written into users (ReplicationTests): the load gives every version a
-- name of its own, so a version recorded twice is a change applied twice (a row trigger fires for COPY and MERGE alike;
-- a rolled-back transaction takes its records with it).
create table applied_log (id uuid not null, name text not null);
create function log_applied() returns trigger language plpgsql as $$
begin
  insert into applied_log values (new.id, new.name);
  return new;
end
$$;
create trigger log_applied after insert or update on users for each row execute function log_applied();
