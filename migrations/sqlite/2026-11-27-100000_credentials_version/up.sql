-- Which generation of an account's credentials its access tokens must carry: a password
-- change adds one, so every token issued before it is refused.
ALTER TABLE users ADD COLUMN credentials_version BIGINT NOT NULL DEFAULT 0;
