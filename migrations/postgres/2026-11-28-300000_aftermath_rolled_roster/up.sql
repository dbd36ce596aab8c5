-- A post-battle row keeps its state's after-rolls roster in a column of its own, written by
-- the roll steps only: the steps after them (purchases, reinforcements, finalize) rewrite the
-- much smaller rest of the state, and PostgreSQL keeps the roster's stored value as it is.
-- Rows written before leave it NULL and hold the roster inside `state`; they load as they are.
ALTER TABLE battle_aftermaths ADD COLUMN after_rolls TEXT;
DO $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM pg_settings
        WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
    ) THEN
        EXECUTE 'ALTER TABLE battle_aftermaths ALTER COLUMN after_rolls SET COMPRESSION lz4';
    END IF;
END
$$;
