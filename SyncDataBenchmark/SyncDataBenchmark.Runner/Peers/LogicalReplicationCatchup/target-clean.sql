drop subscription if exists syncdata_catchup;
