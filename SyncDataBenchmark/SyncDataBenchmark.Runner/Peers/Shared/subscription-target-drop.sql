-- A subscription gone; dropping it also drops its slot on the source (it connects there to do so). {{subscription}}: its name.
drop subscription if exists {{subscription}};
