-- Inside the measuring transaction only (rolled back): the change-log triggers off, to time the same change without them.
alter table {{table}} disable trigger user
