DROP INDEX scenarios_side2_token_hash;
DROP INDEX scenarios_side1_token_hash;
ALTER TABLE scenarios DROP COLUMN side2_token_hash;
ALTER TABLE scenarios DROP COLUMN side1_token_hash;
