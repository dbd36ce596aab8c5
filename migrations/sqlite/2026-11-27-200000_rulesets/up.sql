-- House rulesets: a club's data that extends a built-in ruleset. Every edit is a new version
-- (a row of its own), so a campaign pinned to (id, version) keeps the exact rules it chose.
-- `document` is the house document as JSON text and `hash` its SHA-256 (lowercase hex), kept
-- so export and import can prove it unchanged. A ruleset is archived, never deleted, once a
-- campaign has pinned it.
CREATE TABLE rulesets (
    id TEXT NOT NULL,
    version BIGINT NOT NULL,
    owner TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    document TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    archived BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (id, version)
);
CREATE INDEX rulesets_owner ON rulesets (owner);
