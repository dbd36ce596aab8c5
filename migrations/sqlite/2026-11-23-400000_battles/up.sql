-- Battles, their results and each force's post-battle sequence (issue 6).

CREATE TABLE battles (
    id TEXT PRIMARY KEY NOT NULL,
    campaign_id TEXT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    -- 'scenario', 'pending', 'aftermath', 'complete' or 'void'.
    state TEXT NOT NULL,
    -- The two sides as JSON: [{"force_id": ...} | {"non_player": {...}}].
    sides TEXT NOT NULL,
    -- The recorded result as JSON (outcome, winner, losses), once there is one.
    result TEXT,
    -- Who recorded and who confirmed the result.
    result_by TEXT,
    confirmed_by TEXT,
    -- Optimistic-concurrency version, starting at 1.
    version BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE INDEX battles_campaign_id ON battles (campaign_id);

-- One player side's post-battle sequence: the roster at battle start (with the force version it
-- was taken at), the domain Aftermath as JSON once rolled, and a version for the steps.
CREATE TABLE battle_aftermaths (
    battle_id TEXT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    force_id TEXT NOT NULL REFERENCES forces (id) ON DELETE CASCADE,
    battle_start TEXT NOT NULL,
    force_version BIGINT NOT NULL,
    -- 'open', 'rolled' or 'finalized'.
    stage TEXT NOT NULL,
    state TEXT,
    -- The outcome committed by finalize, as JSON.
    outcome TEXT,
    version BIGINT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (battle_id, force_id)
);
