DROP INDEX scenarios_created_by_created_at;
ALTER TABLE users DROP COLUMN display_name;
DROP TABLE battle_share_links;
