-- Signed-out one-shot scenarios: no creator, an expiry time after which they read as gone and
-- the sweep deletes them, and a keyed hash of the client address that counts them against the
-- per-address hourly limit. A signed-in person who keeps one becomes its creator and clears
-- the expiry. SQLite cannot drop a NOT NULL constraint, so the table is rebuilt (nothing
-- references it).
CREATE TABLE scenarios_new (
    id TEXT PRIMARY KEY NOT NULL,
    created_by TEXT REFERENCES users (id),
    share_token_hash TEXT UNIQUE,
    document TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP,
    client_hash TEXT
);
INSERT INTO scenarios_new (id, created_by, share_token_hash, document, created_at)
    SELECT id, created_by, share_token_hash, document, created_at FROM scenarios;
DROP TABLE scenarios;
ALTER TABLE scenarios_new RENAME TO scenarios;
CREATE INDEX scenarios_created_by ON scenarios (created_by);
CREATE INDEX scenarios_created_by_created_at ON scenarios (created_by, created_at DESC, id);
CREATE INDEX scenarios_expires_at ON scenarios (expires_at);
CREATE INDEX scenarios_client_hash_created_at ON scenarios (client_hash, created_at);
