-- Scenarios nobody owns cannot survive a creator column that must be filled.
DROP INDEX scenarios_client_hash_created_at;
DROP INDEX scenarios_expires_at;
DELETE FROM scenarios WHERE created_by IS NULL;
ALTER TABLE scenarios DROP COLUMN client_hash;
ALTER TABLE scenarios DROP COLUMN expires_at;
ALTER TABLE scenarios ALTER COLUMN created_by SET NOT NULL;
