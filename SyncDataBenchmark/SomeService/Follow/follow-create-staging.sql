-- A follower's staging table, made once per connection and emptied at each commit: the table's columns without their
-- NOT NULL (an unchanged TOASTed value arrives as no value) plus _unchanged, the positions (0-based, in COPY order) of
-- the columns pgoutput sent as 'u', whose target values the merge keeps. Analyzed once, empty: a never-analyzed table
-- is planned as at least 10 pages (hundreds of rows), so a batch of a few rows was merged by hashing the whole target
-- (a 100,000-row users: 74 ms instead of 0.1 ms by its key's index, measured); analyzed, the planner takes its real pages.
create temp table if not exists {staging} on commit delete rows as select {columns} from {table} with no data;
alter table {staging} add column if not exists _unchanged int[];
analyze {staging}
