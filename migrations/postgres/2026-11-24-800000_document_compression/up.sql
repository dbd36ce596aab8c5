-- The large JSON document columns are compressed with lz4 (much faster than the default pglz
-- at a similar ratio) where the server has it: PostgreSQL 14 and later, built with lz4. On any
-- other server nothing changes. Values already stored keep their compression until rewritten.
-- The statements are run with EXECUTE so that an older server never parses them.
DO $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM pg_settings
        WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
    ) THEN
        EXECUTE 'ALTER TABLE forces ALTER COLUMN roster SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE force_history ALTER COLUMN snapshot SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE battle_aftermaths'
            ' ALTER COLUMN battle_start SET COMPRESSION lz4,'
            ' ALTER COLUMN state SET COMPRESSION lz4,'
            ' ALTER COLUMN outcome SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE battle_scenarios ALTER COLUMN document SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE scenarios ALTER COLUMN document SET COMPRESSION lz4';
        EXECUTE 'ALTER TABLE idempotency_keys ALTER COLUMN response SET COMPRESSION lz4';
    END IF;
END
$$;
