-- Back to the server's default compression (a setting that exists from PostgreSQL 14 on).
DO $$
BEGIN
    IF current_setting('server_version_num')::int >= 140000 THEN
        EXECUTE 'ALTER TABLE forces ALTER COLUMN roster SET COMPRESSION default';
        EXECUTE 'ALTER TABLE force_history ALTER COLUMN snapshot SET COMPRESSION default';
        EXECUTE 'ALTER TABLE battle_aftermaths'
            ' ALTER COLUMN battle_start SET COMPRESSION default,'
            ' ALTER COLUMN state SET COMPRESSION default,'
            ' ALTER COLUMN outcome SET COMPRESSION default';
        EXECUTE 'ALTER TABLE battle_scenarios ALTER COLUMN document SET COMPRESSION default';
        EXECUTE 'ALTER TABLE scenarios ALTER COLUMN document SET COMPRESSION default';
        EXECUTE 'ALTER TABLE idempotency_keys ALTER COLUMN response SET COMPRESSION default';
    END IF;
END
$$;
