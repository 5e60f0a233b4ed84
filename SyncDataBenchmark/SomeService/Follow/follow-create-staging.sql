-- A follower's staging table, made once per connection and emptied at each commit: the table's columns without their
-- NOT NULL (an unchanged TOASTed value arrives as no value) plus _unchanged, the positions (0-based, in COPY order) of
-- the columns pgoutput sent as 'u', whose target values the merge keeps.
create temp table if not exists {staging} on commit delete rows as select {columns} from {table} with no data;
alter table {staging} add column if not exists _unchanged int[]
