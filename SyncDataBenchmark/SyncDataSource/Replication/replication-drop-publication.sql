-- The publication of a follower's slot (one per slot, of the same name), gone with it or before it is made anew.
drop publication if exists {publication}
