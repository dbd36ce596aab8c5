-- A battle's scenario workflow (issue 7 item 1; API.md › Scenario generation): one row per
-- battle, created by the first scenario submission. `document` holds the domain's machine
-- state, the roll log and each side's entered dice not used yet, as JSON (it holds both sides'
-- secrets: only the service reads it, and every response goes through the per-viewer view).
-- `version` is the optimistic-concurrency version every step checks and bumps.
CREATE TABLE battle_scenarios (
    battle_id TEXT PRIMARY KEY NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    document TEXT NOT NULL,
    version BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
