-- Campaigns, memberships, invitations and integration keys (issue 4).
-- Ids are UUID text; times are UTC `TIMESTAMP` (microseconds); JSON is text.

CREATE TABLE campaigns (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    -- CampaignSettings as JSON: house rules plus service settings.
    settings TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE memberships (
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id),
    -- 'organiser' or 'player'.
    role TEXT NOT NULL,
    joined_at TIMESTAMP NOT NULL,
    PRIMARY KEY (campaign_id, user_id)
);

CREATE INDEX memberships_user_id ON memberships (user_id);
-- Exactly one organiser per campaign: a hand-over demotes first, then promotes.
CREATE UNIQUE INDEX memberships_one_organiser ON memberships (campaign_id) WHERE role = 'organiser';

CREATE TABLE invites (
    id TEXT PRIMARY KEY NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- SHA-256 hex of the code; the code itself is shown once.
    code_hash TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    max_uses INTEGER,
    uses INTEGER NOT NULL,
    revoked_at TIMESTAMP,
    CONSTRAINT invites_code_hash_unique UNIQUE (code_hash)
);

CREATE INDEX invites_campaign_id ON invites (campaign_id);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- SHA-256 hex of the whole key; the key itself is shown once.
    key_hash TEXT NOT NULL,
    -- The first characters of the key, so an organiser can tell keys apart.
    key_prefix TEXT NOT NULL,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at TIMESTAMP,
    CONSTRAINT api_keys_key_hash_unique UNIQUE (key_hash)
);

CREATE INDEX api_keys_campaign_id ON api_keys (campaign_id);
