-- One-shot scenarios (issue 7 item 4) and the generic Idempotency-Key store (API.md › General).
-- Ids are UUID text; times are UTC `TIMESTAMP`; JSON is text.

CREATE TABLE scenarios (
    id TEXT PRIMARY KEY NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    -- SHA-256 hex of the share token; NULL while the scenario is private.
    share_token_hash TEXT UNIQUE,
    -- The whole scenario as JSON (machine state, roll log, narrative, unused dice): one read.
    document TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX scenarios_created_by ON scenarios (created_by);

-- The first response to a write sent with an Idempotency-Key, per user and endpoint (scope),
-- with a hash of the request body so a reused key with another body is refused.
CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL REFERENCES users (id),
    scope TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, scope, idempotency_key)
);
