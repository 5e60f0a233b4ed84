-- MERGE of the changed rows in :merge_source into {{table}} (PostgreSQL 15: no WHEN NOT MATCHED BY SOURCE, so the
-- deletes are a statement of their own). MERGE names every column; the lists are read from the catalog, not repeated.
select format('merge into %1$I t using %2$s s on t.id = s.id '
              'when matched then update set %3$s '
              'when not matched then insert (%4$s) values (%5$s)',
              '{{table}}', :'merge_source',
              string_agg(format('%1$I = s.%1$I', attname), ', ' order by attnum) filter (where attname <> 'id'),
              string_agg(quote_ident(attname), ', ' order by attnum),
              string_agg('s.' || quote_ident(attname), ', ' order by attnum))
from pg_attribute
where attrelid = '{{table}}'::regclass and attnum > 0 and not attisdropped \gexec
