ALTER TABLE campaigns DROP COLUMN settings_version;
