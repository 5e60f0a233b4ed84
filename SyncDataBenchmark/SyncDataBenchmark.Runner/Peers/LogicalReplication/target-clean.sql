drop subscription if exists syncdata_peer;
