-- Signed-out one-shot scenarios: no creator, an expiry time after which they read as gone and
-- the sweep deletes them, and a keyed hash of the client address that counts them against the
-- per-address hourly limit. A signed-in person who keeps one becomes its creator and clears
-- the expiry.
ALTER TABLE scenarios ALTER COLUMN created_by DROP NOT NULL;
ALTER TABLE scenarios ADD COLUMN expires_at TIMESTAMP;
ALTER TABLE scenarios ADD COLUMN client_hash TEXT;
CREATE INDEX scenarios_expires_at ON scenarios (expires_at);
CREATE INDEX scenarios_client_hash_created_at ON scenarios (client_hash, created_at);
