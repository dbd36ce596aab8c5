-- SQLite needs no schema for live updates: the store marks a member whose membership changed,
-- and the in-process wake follows the commit. PostgreSQL's migration of the same name adds the
-- trigger that tells other processes.
SELECT 1;
