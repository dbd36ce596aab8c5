-- Scenarios nobody owns cannot survive a creator column that must be filled.
CREATE TABLE scenarios_old (
    id TEXT PRIMARY KEY NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    share_token_hash TEXT UNIQUE,
    document TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO scenarios_old (id, created_by, share_token_hash, document, created_at)
    SELECT id, created_by, share_token_hash, document, created_at FROM scenarios
    WHERE created_by IS NOT NULL;
DROP TABLE scenarios;
ALTER TABLE scenarios_old RENAME TO scenarios;
CREATE INDEX scenarios_created_by ON scenarios (created_by);
CREATE INDEX scenarios_created_by_created_at ON scenarios (created_by, created_at DESC, id);
