-- Untimed: the foreign server and the foreign table, in a schema of its own.
{{foreign_server}}
import foreign schema public limit to ({{table}}) from server syncdata_peer_source into syncdata_peer_fdw;
