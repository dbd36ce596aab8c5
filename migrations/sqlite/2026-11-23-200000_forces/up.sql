-- Forces (rosters), their history and campaign-point ledgers (issue 5).
-- The roster is one JSON text column, so reading a force is one statement.

CREATE TABLE forces (
    id TEXT PRIMARY KEY NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    -- fad_domain::roster::Force as JSON (name, platoons, units).
    roster TEXT NOT NULL,
    -- Optimistic-concurrency version, starting at 1; equals the newest history entry's version.
    version BIGINT NOT NULL,
    archived_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE INDEX forces_campaign_id ON forces (campaign_id);

CREATE TABLE force_history (
    id TEXT PRIMARY KEY NOT NULL,
    force_id TEXT NOT NULL REFERENCES forces (id) ON DELETE CASCADE,
    -- The force version this entry produced.
    version BIGINT NOT NULL,
    at TIMESTAMP NOT NULL,
    -- The user who made the change; NULL for the service itself.
    actor_id TEXT,
    -- 'create', 'edit', 'archive', 'import', 'generation', 'battle', 'purchase', ...
    cause_kind TEXT NOT NULL,
    -- The battle, purchase or source force id, when there is one.
    cause_id TEXT,
    -- Per-unit diff as JSON.
    diff TEXT NOT NULL,
    -- Roll log (API.md rolls) as JSON.
    rolls TEXT NOT NULL,
    -- The roster after the change, as JSON.
    snapshot TEXT NOT NULL,
    CONSTRAINT force_history_version_unique UNIQUE (force_id, version)
);

CREATE TABLE force_ledger (
    id TEXT PRIMARY KEY NOT NULL,
    force_id TEXT NOT NULL REFERENCES forces (id) ON DELETE CASCADE,
    -- 1, 2, 3, ... per force; the unique pair makes two concurrent appends unable to both win.
    seq BIGINT NOT NULL,
    at TIMESTAMP NOT NULL,
    -- 'earned' or 'spent'.
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount >= 0),
    balance BIGINT NOT NULL CHECK (balance >= 0),
    actor_id TEXT,
    cause_kind TEXT NOT NULL,
    cause_id TEXT,
    note TEXT,
    CONSTRAINT force_ledger_seq_unique UNIQUE (force_id, seq)
);
