-- A foreign server on the source (fetch_size 10000: at the default 100 a million rows take 10,000 round trips),
-- a user mapping and an empty schema for the foreign tables; the postgres_fdw peers' untimed set-up.
\getenv src_host SRC_HOST
\getenv src_port SRC_PORT
\getenv src_db SRC_DB
\getenv src_user SRC_USER
\getenv src_password SRC_PASSWORD
create extension if not exists postgres_fdw;
drop schema if exists syncdata_peer_fdw cascade;
drop server if exists syncdata_peer_source cascade;
create server syncdata_peer_source foreign data wrapper postgres_fdw
    options (host :'src_host', port :'src_port', dbname :'src_db', fetch_size '10000');
\if :{?src_password}
create user mapping for current_user server syncdata_peer_source options (user :'src_user', password :'src_password');
\else
create user mapping for current_user server syncdata_peer_source options (user :'src_user');
\endif
create schema syncdata_peer_fdw;
