-- The first copy: every row, each column in the table's COPY order as its type's text output, the form pgoutput's text
-- mode sends the changes in, so SomeService applies both the same way.
select {text_columns} from {table}
