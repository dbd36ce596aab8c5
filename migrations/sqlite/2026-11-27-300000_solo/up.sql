-- Solo play: the groups and turn log of a non-player side during the battle, one row per battle
-- or one-shot scenario (exactly one of the two set), as a JSON document. `version` is the
-- optimistic-concurrency version every write checks and bumps, so two turns started at once
-- cannot both be written.
CREATE TABLE solo_states (
    owner_id TEXT PRIMARY KEY NOT NULL,
    battle_id TEXT REFERENCES battles (id) ON DELETE CASCADE,
    scenario_id TEXT REFERENCES scenarios (id) ON DELETE CASCADE,
    document TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    CHECK ((battle_id IS NULL) <> (scenario_id IS NULL))
);
