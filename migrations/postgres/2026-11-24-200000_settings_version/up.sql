-- Campaign settings get their own optimistic-concurrency version, so a rename and a settings
-- edit never make each other stale.
ALTER TABLE campaigns ADD COLUMN settings_version BIGINT NOT NULL DEFAULT 1;
