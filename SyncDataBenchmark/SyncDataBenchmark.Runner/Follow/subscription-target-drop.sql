-- Dropping the subscription also drops its slot on the source (it connects there to do so).
drop subscription if exists {{prefix}};
