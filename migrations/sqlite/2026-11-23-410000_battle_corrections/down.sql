ALTER TABLE battles DROP COLUMN corrections;
