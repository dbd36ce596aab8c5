ALTER TABLE users DROP COLUMN credentials_version;
