DROP TRIGGER memberships_live ON memberships;
