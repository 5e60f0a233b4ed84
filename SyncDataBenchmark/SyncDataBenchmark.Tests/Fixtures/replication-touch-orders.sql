-- An update that leaves the TOASTed note unchanged: pgoutput sends it as 'u' (unchanged), not its value. $1: the first orders to touch.
update orders set item_count = item_count + 1 where id in (select id from orders order by id limit $1)
