-- Before --follow installs anything on a user's database (--follow-install, --follow-publication): each right the
-- connecting role lacks for it, one line each, none when it has them all. $1: the table as SQL names it; $2: the
-- user's publication to decode through, or null (then the lab creates one: ownership and CREATE on the database).
-- Only reads the catalog and settings.
select m from unnest(array[
  case when current_setting('wal_level') <> 'logical'
       then format('wal_level is %s on your server: logical decoding needs wal_level=logical (postgresql.conf, then a restart)', current_setting('wal_level')) end,
  case when not (select rolreplication or rolsuper from pg_roles where rolname = current_user)
       then format('the role %I has neither REPLICATION nor superuser: it cannot create the replication slot (ALTER ROLE %I REPLICATION)', current_user, current_user) end,
  case when not has_table_privilege($1::regclass, 'SELECT')
       then format('the role %I may not SELECT %s: the first copy reads it (GRANT SELECT ON %s TO %I)', current_user, $1, $1, current_user) end,
  case when $2::text is null and not pg_has_role(current_user, (select relowner from pg_class where oid = $1::regclass), 'USAGE')
       then format('the role %I does not own %s: CREATE PUBLICATION … FOR TABLE needs its owner (or name a publication of yours with --follow-publication)', current_user, $1) end,
  case when $2::text is null and not has_database_privilege(current_database(), 'CREATE')
       then format('the role %I may not CREATE in the database %I: CREATE PUBLICATION needs it (or name a publication of yours with --follow-publication)', current_user, current_database()) end,
  case when $2::text is not null and not exists (
           select from pg_publication_rel pr join pg_publication p on p.oid = pr.prpubid where p.pubname = $2 and pr.prrelid = $1::regclass
           union all select from pg_publication p where p.pubname = $2 and p.puballtables)
       then format('the publication %I does not exist or does not publish %s (CREATE PUBLICATION %I FOR TABLE %s, as its owner)', $2, $1, $2, $1) end
]) m
where m is not null
