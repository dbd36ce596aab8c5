ALTER TABLE battles DROP COLUMN options;
