ALTER TABLE battle_aftermaths DROP COLUMN after_rolls;
