//! `fad-campaign import` of a hostile export document. Every reference in the
//! document must point inside it (a battle's side, result and post-battle sequence name forces
//! of the imported campaign; accounts are matched by name), checked before anything is written;
//! `--replace` touches only the campaign's own rows, never another account's one-shot scenario.
//! The documents are crafted here from a real export of the attacker's own campaign.

use serde_json::{Value, json};

use crate::auth::TestUser;
use crate::backup::{export, failed, import, write};
use crate::campaigns::{People, World, create_campaign};
use crate::common::{TestApp, ok};
use crate::forces::{create_force, small_roster};

/// The attacker's own campaign: a force, a battle against a non-player force and a scenario
/// generated from the force.
struct Attacker {
    campaign_id: String,
    force_id: String,
}

fn attacker_campaign(app: &TestApp, attacker: &TestUser) -> Attacker {
    let campaign = create_campaign(app, attacker, "Trojan Horse");
    let campaign_id = campaign["id"].as_str().unwrap().to_owned();
    let force = create_force(app, attacker, &campaign_id, &small_roster("Greeks"));
    let force_id = force["id"].as_str().unwrap().to_owned();
    ok(app.post_json_with_token(
        &format!("/api/v1/campaigns/{campaign_id}/battles"),
        &json!({"sides": [{"force_id": force_id}, {"non_player": {"name": "Trojans"}}]}),
        &attacker.token,
    ));
    ok(app.post_json_with_token(
        "/api/v1/scenarios",
        &json!({"sides": [
            {"force_id": force_id, "stance": "neutral", "attitude": "cautious"},
            {"name": "Bandits", "non_player": true, "stance": "neutral", "attitude": "cautious", "units": [
                {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
                {"name": "Line", "kind": "squad", "resolve": "steady", "traits": []}]}
        ]}),
        &attacker.token,
    ));
    Attacker {
        campaign_id,
        force_id,
    }
}

/// Imports `doc` with `--replace` and returns the refusal's message; panics if it imported.
#[track_caller]
fn refused(app: &TestApp, dir: &std::path::Path, doc: &Value) -> String {
    let path = write(dir, "hostile.json", &doc.to_string());
    failed(&import(app.db.url(), &path, &["--replace"]))
}

both_backends! {
    fn i27_a_battle_side_naming_another_campaigns_force_is_refused_before_any_write(app: &TestApp) {
        // Arrange: a victim campaign with the owner's force; the outsider's own campaign,
        // exported.
        let people = People::register(app);
        let world = World::build(app, &people);
        let victim_before = ok(app.get_with_token(&format!("/api/v1/forces/{}", world.force_id), &people.owner.token));
        let attacker = attacker_campaign(app, &people.outsider);
        let dir = tempfile::tempdir().unwrap();
        let original = export(dir.path(), "mine.json", app.db.url(), &attacker.campaign_id);
        let doc: Value = serde_json::from_str(&original).unwrap();
        assert!(doc["battles"][0]["sides"].to_string().contains(&attacker.force_id), "{doc}");

        // Act: the battle's side names the victim's force; then a force that exists nowhere.
        let mut hostile = doc.clone();
        let sides = hostile["battles"][0]["sides"].as_str().unwrap().replace(&attacker.force_id, &world.force_id);
        hostile["battles"][0]["sides"] = json!(sides);
        let message = refused(app, dir.path(), &hostile);
        let mut nowhere = doc.clone();
        let ghost = "00000000-0000-4000-8000-00000000dead";
        let sides = nowhere["battles"][0]["sides"].as_str().unwrap().replace(&attacker.force_id, ghost);
        nowhere["battles"][0]["sides"] = json!(sides);
        let ghost_message = refused(app, dir.path(), &nowhere);

        // Assert: refused with the path, and nothing changed anywhere.
        assert!(message.contains("battles[0].sides[0].force_id"), "{message}");
        assert!(ghost_message.contains("battles[0].sides[0].force_id"), "{ghost_message}");
        let after = export(dir.path(), "after.json", app.db.url(), &attacker.campaign_id);
        assert_eq!(after, original, "the refused imports changed the attacker's campaign");
        let victim_after = ok(app.get_with_token(&format!("/api/v1/forces/{}", world.force_id), &people.owner.token));
        assert_eq!(victim_after, victim_before);
    }

    fn i27_a_result_or_sequence_naming_a_force_off_the_battle_is_refused(app: &TestApp) {
        // Arrange: a campaign whose battle has a result and post-battle sequences; a second
        // force of the same campaign that did not fight it.
        let people = People::register(app);
        let world = World::build(app, &people);
        let bystander = create_force(app, &people.player, &world.campaign_id, &small_roster("Bystander"));
        let bystander = bystander["id"].as_str().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let original = export(dir.path(), "doc.json", app.db.url(), &world.campaign_id);
        let doc: Value = serde_json::from_str(&original).unwrap();
        let battles = doc["battles"].as_array().unwrap();
        let b = battles.iter().position(|b| b["id"] == world.battle_id.as_str()).unwrap();
        let a = doc["battle_aftermaths"].as_array().unwrap().iter()
            .position(|a| a["battle_id"] == world.battle_id.as_str()).unwrap();

        // Act: the aftermath of the battle moves to the bystander; then the result's winner.
        let mut moved = doc.clone();
        moved["battle_aftermaths"][a]["force_id"] = json!(bystander);
        let message = refused(app, dir.path(), &moved);
        let mut winner = doc.clone();
        let mut result: Value = serde_json::from_str(doc["battles"][b]["result"].as_str().unwrap()).unwrap();
        result["outcome"] = json!("win");
        result["winner_force_id"] = json!(bystander);
        winner["battles"][b]["result"] = json!(result.to_string());
        let winner_message = refused(app, dir.path(), &winner);

        // Assert
        assert!(message.contains(&format!("battle_aftermaths[{a}].force_id")), "{message}");
        assert!(winner_message.contains(&format!("battles[{b}].result.winner_force_id")), "{winner_message}");
        let after = export(dir.path(), "after.json", app.db.url(), &world.campaign_id);
        assert_eq!(after, original);
    }

    fn i27_import_replace_never_replaces_another_accounts_scenario(app: &TestApp) {
        // Arrange: the player's own one-shot scenario (no campaign); the outsider's campaign
        // with a scenario of its force, exported.
        let people = People::register(app);
        let victim = ok(app.post_json_with_token(
            "/api/v1/scenarios",
            &json!({"sides": [
                {"name": "Mine", "stance": "neutral", "attitude": "cautious", "units": [
                    {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
                    {"name": "Line", "kind": "squad", "resolve": "steady", "traits": []}]},
                {"name": "Yours", "non_player": true, "stance": "neutral", "attitude": "cautious", "units": [
                    {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
                    {"name": "Line", "kind": "squad", "resolve": "steady", "traits": []}]}
            ]}),
            &people.player.token,
        ));
        let victim_id = victim["id"].as_str().unwrap();
        let victim_before = ok(app.get_with_token(&format!("/api/v1/scenarios/{victim_id}"), &people.player.token));
        let attacker = attacker_campaign(app, &people.outsider);
        let dir = tempfile::tempdir().unwrap();
        let original = export(dir.path(), "mine.json", app.db.url(), &attacker.campaign_id);
        let doc: Value = serde_json::from_str(&original).unwrap();
        assert_eq!(doc["scenarios"].as_array().unwrap().len(), 1, "{doc}");

        // Act: the attacker's scenario takes the id of the player's.
        let mut hostile = doc.clone();
        hostile["scenarios"][0]["id"] = json!(victim_id);
        let message = refused(app, dir.path(), &hostile);

        // Assert: refused; the player's scenario is theirs and unchanged; nothing else moved.
        assert!(message.contains(victim_id) && message.contains("not this campaign's"), "{message}");
        let victim_after = ok(app.get_with_token(&format!("/api/v1/scenarios/{victim_id}"), &people.player.token));
        assert_eq!(victim_after, victim_before);
        let after = export(dir.path(), "after.json", app.db.url(), &attacker.campaign_id);
        assert_eq!(after, original);
    }
}
