-- A team's table keyed by a GENERATED ALWAYS identity column (OwnTableServiceTests): a merge inserts the source's ids
-- only with OVERRIDING SYSTEM VALUE. Ids 3 and 4 deleted, so the target's own sequence would not give the source's.
create table "Team Sales"."Always Keyed" (id bigint generated always as identity primary key, "Label" text not null);
insert into "Team Sales"."Always Keyed" ("Label") select 'label ' || g from generate_series(1, 20) as g;
delete from "Team Sales"."Always Keyed" where id in (3, 4);
