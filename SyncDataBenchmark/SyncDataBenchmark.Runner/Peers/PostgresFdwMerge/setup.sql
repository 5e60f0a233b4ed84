-- Untimed, on the target: the foreign server and the source's views and watermark table as foreign tables, in a schema of their own.
{{foreign_server}}
import foreign schema public limit to (syncdata_fdw_since, syncdata_fdw_changed, syncdata_fdw_deleted, syncdata_fdw_snapshot)
    from server syncdata_peer_source into syncdata_peer_fdw;
