-- Signed-in browser sessions of the web pages. The cookie carries a random value; only its
-- SHA-256 is stored, so a copy of the database cannot be replayed as a session. Rows go on
-- logout and on password change; expired rows are removed when their owner logs in.
CREATE TABLE web_sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX web_sessions_user_id ON web_sessions (user_id);
