DROP TABLE api_keys;
DROP TABLE invites;
DROP TABLE memberships;
DROP TABLE campaigns;
