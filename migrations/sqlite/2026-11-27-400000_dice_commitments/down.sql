DROP TABLE dice_commitments;
