-- A user's own traffic on their table (not the lab's: the test writes it as the table's owner): one row's score and
-- note changed. $1: the row's "order" (region 3's rows, team-table-rows.sql).
update "Team Sales"."Order Lines" set score = coalesce(score, 0) + 1, note = 'user traffic ' || $1 where region = 3 and "order" = $1
