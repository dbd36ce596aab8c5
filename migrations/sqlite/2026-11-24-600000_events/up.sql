-- The event outbox: one row per change an integration may hear about, written in the same
-- transaction as the change. `seq` orders a campaign's events (commit order: appends to one
-- campaign are serialised), feeding webhooks now and the battle timeline later.
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    -- The message id sent as `webhook-id` (the same on every retry).
    id TEXT NOT NULL UNIQUE,
    event_type TEXT NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    battle_id TEXT,
    force_id TEXT,
    occurred_at TIMESTAMP NOT NULL,
    -- The `data` object as JSON: only what an integration key may read.
    payload TEXT NOT NULL
);

CREATE INDEX events_campaign_seq ON events (campaign_id, seq);

-- Signed webhooks of a campaign. `secret` is the signing key in clear: it has to be, to sign
-- (HMAC), so a database leak lets the reader forge deliveries until the hook is replaced.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    -- The event types subscribed to, as a JSON array of strings.
    events TEXT NOT NULL,
    description TEXT,
    secret TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    -- Set when the receiver answered 410 Gone (or deliveries gave up): no more deliveries.
    disabled_at TIMESTAMP,
    disabled_reason TEXT
);

CREATE INDEX webhooks_campaign_id ON webhooks (campaign_id);

-- One event for one webhook: the delivery queue and the delivery log. A row is claimed by a
-- lease (`leased_until`), so a process killed mid-delivery leaves it to be retried.
CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_seq BIGINT NOT NULL REFERENCES events (seq) ON DELETE CASCADE,
    -- 'pending', 'delivered' or 'failed' (gave up, or the webhook was disabled).
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    leased_until TIMESTAMP,
    last_attempt_at TIMESTAMP,
    -- The receiver's HTTP status of the last attempt, if it answered.
    last_status_code INTEGER,
    last_error TEXT,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (webhook_id, status, event_seq);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
