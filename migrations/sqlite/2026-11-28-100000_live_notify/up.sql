-- Live updates on SQLite need no schema: one process serves a database file, and the store
-- marks what each transaction touched for the in-process wakes (api/src/live). PostgreSQL's
-- migration of the same name adds the triggers that notify other processes.
SELECT 1;
