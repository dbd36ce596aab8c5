-- A one-shot scenario's sheet per side: each side's link shows that side's secrets and only what
-- the rules reveal of the other. The tokens are derived from the scenario id with the service
-- secret (never stored); these columns keep their SHA-256 for the lookup.
ALTER TABLE scenarios ADD COLUMN side1_token_hash TEXT;
ALTER TABLE scenarios ADD COLUMN side2_token_hash TEXT;
CREATE UNIQUE INDEX scenarios_side1_token_hash ON scenarios (side1_token_hash);
CREATE UNIQUE INDEX scenarios_side2_token_hash ON scenarios (side2_token_hash);
