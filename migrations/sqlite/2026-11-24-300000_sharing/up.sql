-- Share links to one side's printable sheet of a battle. The link's token is not stored: it is
-- recomputed from `id` with a key derived from the service secret, and `token_hash` (SHA-256
-- of the token) finds the row when the link is opened, so a leaked table gives no usable link.
-- One live link per battle side; revoking deletes the row.
CREATE TABLE battle_share_links (
    id TEXT PRIMARY KEY NOT NULL,
    battle_id TEXT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    force_id TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (battle_id, force_id)
);
-- The name other players see; NULL means the username.
ALTER TABLE users ADD COLUMN display_name TEXT;
-- The caller's one-shot scenarios, newest first.
CREATE INDEX scenarios_created_by_created_at ON scenarios (created_by, created_at DESC, id);
