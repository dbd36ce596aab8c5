-- Verifiable server dice: a seed is committed (its SHA-256 shown) before the roll that uses it,
-- and revealed in the roll log after. `scope` names the workflow whose next server roll uses the
-- seed (a force's post-battle sequence, one side of a battle's scenario); at most one open
-- (unused) commitment per scope. Commitments issued for a single request (a one-shot scenario, a
-- force generation) have their own scope and expire unused.
CREATE TABLE dice_commitments (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    seed TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP,
    expires_at TIMESTAMP,
    client_hash TEXT
);
CREATE UNIQUE INDEX dice_commitments_open_scope ON dice_commitments (scope) WHERE used_at IS NULL;
CREATE INDEX dice_commitments_expires_at ON dice_commitments (expires_at);
CREATE INDEX dice_commitments_client_hash_created_at ON dice_commitments (client_hash, created_at);
