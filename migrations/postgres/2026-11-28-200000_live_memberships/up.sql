-- A member removed from a campaign, or whose role changed, may no longer see a battle the same
-- way: their open streams wake through their owner key and check their access again. (A
-- battle's wake reads what its viewers see once for all of them, without checking each one's
-- access, so a lost access must wake its holder.)
CREATE TRIGGER memberships_live AFTER UPDATE OR DELETE ON memberships
    FOR EACH ROW EXECUTE FUNCTION fad_live_account();
