-- Live updates pushed, not polled: each committed change that a battle page's viewer may see
-- notifies channel fad_live with 'b:<battle id>', and each ended credential with
-- 'o:<account or key id>'. PostgreSQL delivers a notification only at commit (never for a
-- rollback) to every listening process, folding repeats within one transaction. The server's
-- listener wakes the matching streams, which then read their own viewer's signature.

CREATE FUNCTION fad_live_battle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fad_live', 'b:' || NEW.id);
    RETURN NULL;
END $$;

CREATE FUNCTION fad_live_battle_part() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('fad_live', 'b:' || OLD.battle_id);
    ELSE
        PERFORM pg_notify('fad_live', 'b:' || NEW.battle_id);
    END IF;
    RETURN NULL;
END $$;

-- The owner of a credential: the account (user_id) of a session or personal token.
CREATE FUNCTION fad_live_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('fad_live', 'o:' || OLD.user_id);
    ELSE
        PERFORM pg_notify('fad_live', 'o:' || NEW.user_id);
    END IF;
    RETURN NULL;
END $$;

-- The owner is the row itself: an account, or an integration key.
CREATE FUNCTION fad_live_self() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fad_live', 'o:' || NEW.id);
    RETURN NULL;
END $$;

-- A battle's viewers see its version move with every public change; a quiet lock (a side's
-- secret step) rewrites the same version and wakes nobody through this table.
CREATE TRIGGER battles_live AFTER UPDATE ON battles
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION fad_live_battle();
CREATE TRIGGER battle_scenarios_live AFTER INSERT OR UPDATE ON battle_scenarios
    FOR EACH ROW EXECUTE FUNCTION fad_live_battle_part();
CREATE TRIGGER battle_aftermaths_live AFTER INSERT OR UPDATE OR DELETE ON battle_aftermaths
    FOR EACH ROW EXECUTE FUNCTION fad_live_battle_part();

-- Credentials ending: a logout or a password change (sessions go), a new credentials
-- generation, a revoked personal token or integration key.
CREATE TRIGGER web_sessions_live AFTER DELETE ON web_sessions
    FOR EACH ROW EXECUTE FUNCTION fad_live_account();
CREATE TRIGGER personal_tokens_live AFTER UPDATE OF revoked_at ON personal_tokens
    FOR EACH ROW EXECUTE FUNCTION fad_live_account();
CREATE TRIGGER users_live AFTER UPDATE OF credentials_version ON users
    FOR EACH ROW EXECUTE FUNCTION fad_live_self();
CREATE TRIGGER api_keys_live AFTER UPDATE OF revoked_at ON api_keys
    FOR EACH ROW EXECUTE FUNCTION fad_live_self();
