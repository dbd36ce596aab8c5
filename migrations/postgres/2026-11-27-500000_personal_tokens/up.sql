-- Personal access tokens: a bot acting for one person. The token is shown once; only its
-- SHA-256 is kept. `scopes` is a JSON array (`["read"]` or `["read","write"]`).
CREATE TABLE personal_tokens (
    id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    token_prefix TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP,
    last_used_at TIMESTAMP,
    revoked_at TIMESTAMP,
    CONSTRAINT personal_tokens_token_hash_unique UNIQUE (token_hash)
);

CREATE INDEX personal_tokens_user_id ON personal_tokens (user_id);
