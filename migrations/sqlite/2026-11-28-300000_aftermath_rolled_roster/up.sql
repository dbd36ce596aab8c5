-- A post-battle row keeps its state's after-rolls roster in a column of its own, written by
-- the roll steps only (see the PostgreSQL migration of the same name). Rows written before
-- leave it NULL and hold the roster inside `state`.
ALTER TABLE battle_aftermaths ADD COLUMN after_rolls TEXT;
