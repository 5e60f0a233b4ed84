-- Change tracking on the SOURCE database (after schema.sql): what a consumer needs to ask "what changed since my
-- watermark?", the watermark being the source snapshot (pg_current_snapshot()) its last sync read.
--
-- Per table a change log of keys, each with the id of the transaction that wrote it, kept by statement-level AFTER
-- triggers with transition tables: one INSERT … SELECT per statement, whatever its row count. A row changed since a
-- watermark W is one whose key has a log entry written by a transaction W does not see (in progress when W was taken,
-- or started after). Visibility, not order: a transaction open when W was taken is invisible in W whatever its
-- timestamps and whenever it commits, so its rows come in the next sync — the trap of a cursor on updated_at or on
-- the transaction id (a later transaction committing first) cannot happen. Deletes are logged like the rest; a key
-- with an entry and no row now is a deleted key.
--
-- What it costs the source's writers: per statement one trigger call and, per row written, one (key, xid8) row in the
-- log and its index entry (docs/changes.md). The log is append-only; nothing here prunes it (the lab's one consumer
-- reads it by an index range from its watermark's xmin on).
-- Idempotent: the lab applies it every time it prepares the databases.

create table if not exists users_changes (
    id  uuid not null,
    xid xid8 not null default pg_current_xact_id()
);
create index if not exists users_changes_xid on users_changes (xid);

create table if not exists orders_changes (
    id  bigint not null,
    xid xid8   not null default pg_current_xact_id()
);
create index if not exists orders_changes_xid on orders_changes (xid);

-- TRUNCATE removes rows without naming their keys, so the deletes it made cannot be logged: it empties the table's log
-- and leaves a mark here, and asking for changes since a watermark that does not see the mark fails (a full sync must run).
create table if not exists change_log_truncations (
    table_name text not null,
    xid        xid8 not null default pg_current_xact_id()
);

-- The trigger functions, shared by the tables: each table's log is <table>_changes, its key the column id.
create or replace function log_inserted_keys()
returns trigger
language plpgsql
as $$
begin
  execute format('insert into %I.%I (id) select id from new_rows', tg_table_schema, tg_table_name || '_changes');
  return null;
end
$$;

-- Both keys: an update that changes a key deletes the old one (no row now) and writes the new one.
create or replace function log_updated_keys()
returns trigger
language plpgsql
as $$
begin
  execute format('insert into %I.%I (id) select id from new_rows union select id from old_rows', tg_table_schema, tg_table_name || '_changes');
  return null;
end
$$;

create or replace function log_deleted_keys()
returns trigger
language plpgsql
as $$
begin
  execute format('insert into %I.%I (id) select id from old_rows', tg_table_schema, tg_table_name || '_changes');
  return null;
end
$$;

create or replace function log_truncation()
returns trigger
language plpgsql
as $$
begin
  execute format('truncate %I.%I', tg_table_schema, tg_table_name || '_changes');
  execute format('insert into %I.change_log_truncations (table_name) values ($1)', tg_table_schema) using tg_table_name;
  return null;
end
$$;

create or replace trigger users_log_inserts after insert on users referencing new table as new_rows
    for each statement execute function log_inserted_keys();
create or replace trigger users_log_updates after update on users referencing old table as old_rows new table as new_rows
    for each statement execute function log_updated_keys();
create or replace trigger users_log_deletes after delete on users referencing old table as old_rows
    for each statement execute function log_deleted_keys();
create or replace trigger users_log_truncations after truncate on users
    for each statement execute function log_truncation();

create or replace trigger orders_log_inserts after insert on orders referencing new table as new_rows
    for each statement execute function log_inserted_keys();
create or replace trigger orders_log_updates after update on orders referencing old table as old_rows new table as new_rows
    for each statement execute function log_updated_keys();
create or replace trigger orders_log_deletes after delete on orders referencing old table as old_rows
    for each statement execute function log_deleted_keys();
create or replace trigger orders_log_truncations after truncate on orders
    for each statement execute function log_truncation();

-- True, or an error when the table was truncated after the watermark (its deletes are not in the log). Called once
-- per query (an uncorrelated scalar subquery), so the functions below stay plain SQL the planner can inline. Its
-- search_path is the one it was created with: a caller's (postgres_fdw's remote sessions run with pg_catalog only)
-- cannot hide the marks from it.
create or replace function change_log_complete(logged_table text, since pg_snapshot)
returns boolean
language plpgsql
stable
set search_path from current
as $$
begin
  if exists (select from change_log_truncations as t where t.table_name = logged_table and not pg_visible_in_snapshot(t.xid, since)) then
    raise exception '% was truncated after the watermark %: the keys it deleted are not logged, so a full sync must run first', logged_table, since
      using errcode = 'object_not_in_prerequisite_state';
  end if;
  return true;
end
$$;

-- The current rows of users written since the watermark (inserted or updated by a transaction it does not see). The
-- xmin bound lets the log's index skip every entry the watermark sees for certain (all before its xmin). Plain SQL
-- bodies the planner inlines into the caller's query (a SET clause would stop that), so their names resolve in the
-- caller's search_path: a session without the tables' schema in it (postgres_fdw's remote one has pg_catalog only)
-- calls them through a wrapper that sets it. Not begin atomic: Npgsql splits a script at the semicolons inside.
create or replace function changed_users(since pg_snapshot)
returns setof users
language sql
stable
as $$
  select u.*
  from users as u
  where (select change_log_complete('users', since))
    and u.id in (select c.id from users_changes as c
                 where c.xid >= pg_snapshot_xmin(since) and not pg_visible_in_snapshot(c.xid, since))
$$;

-- The keys of users deleted since the watermark: written since, no row now.
create or replace function deleted_users(since pg_snapshot)
returns setof uuid
language sql
stable
as $$
  select distinct c.id
  from users_changes as c
  where (select change_log_complete('users', since))
    and c.xid >= pg_snapshot_xmin(since) and not pg_visible_in_snapshot(c.xid, since)
    and not exists (select from users as u where u.id = c.id)
$$;

create or replace function changed_orders(since pg_snapshot)
returns setof orders
language sql
stable
as $$
  select o.*
  from orders as o
  where (select change_log_complete('orders', since))
    and o.id in (select c.id from orders_changes as c
                 where c.xid >= pg_snapshot_xmin(since) and not pg_visible_in_snapshot(c.xid, since))
$$;

create or replace function deleted_orders(since pg_snapshot)
returns setof bigint
language sql
stable
as $$
  select distinct c.id
  from orders_changes as c
  where (select change_log_complete('orders', since))
    and c.xid >= pg_snapshot_xmin(since) and not pg_visible_in_snapshot(c.xid, since)
    and not exists (select from orders as o where o.id = c.id)
$$;
