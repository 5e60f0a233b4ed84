drop schema if exists syncdata_peer_fdw cascade;
drop server if exists syncdata_peer_source cascade;
