-- NpgsqlCopyChanges: the rows changed since the watermark in the table's COPY column order, so every COPY reader and
-- relay takes them as it takes the whole table. COPY takes no parameters: {since} is a watermark SinceParameter checked
-- (digits, colons and commas only).
COPY (select {columns} from changed_{table}('{since}'::pg_snapshot)) TO STDOUT (FORMAT binary)
