DROP TABLE battle_aftermaths;
DROP TABLE battles;
