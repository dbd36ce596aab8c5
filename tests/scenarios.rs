//! One-shot scenarios: entered dice give exact
//! missions and totals, tied top totals are picked by a logged `mission_tie` die, the same
//! mission on both sides is an Escalating Engagement, a non-player side rolls its orders,
//! bad dice are refused with their path, and storage, sharing and Idempotency-Key behave.

use crate::auth::{TestUser, register};
use crate::common::{TestApp, assert_problem, rolls, send};
use reqwest::Method;
use serde_json::{Value, json};

/// Mission dice: every mission 1 except those given.
fn mission_dice(high: &[(&str, u8)]) -> Value {
    let mut dice = serde_json::Map::new();
    for m in [
        "assault",
        "expand",
        "hold",
        "infiltrate",
        "interfere",
        "patrol",
        "strike",
        "sweep",
    ] {
        let v = high.iter().find(|(n, _)| *n == m).map_or(1, |(_, v)| *v);
        dice.insert(m.to_owned(), json!([v]));
    }
    Value::Object(dice)
}

/// A small inline force.
fn force(name: &str) -> Value {
    json!({"name": name, "units": [
        {"name": "Command", "kind": "command_squad", "resolve": "steady", "traits": []},
        {"name": "Scouts", "kind": "squad", "resolve": "steady", "traits": []},
        {"name": "Line", "kind": "squad", "resolve": "determined", "traits": []}
    ]})
}

fn side(name: &str, stance: &str, attitude: &str, dice: Value) -> Value {
    let mut s = force(name);
    s["stance"] = json!(stance);
    s["attitude"] = json!(attitude);
    s["dice"] = dice;
    s
}

#[track_caller]
fn create(app: &TestApp, user: &TestUser, body: &Value) -> Value {
    let r = app.post_json_with_token("/api/v1/scenarios", body, &user.token);
    assert_eq!(r.status(), 201, "{}", r.text().unwrap());
    r.json().unwrap()
}

both_backends! {
    fn entered_mission_dice_give_exact_missions_and_totals(app: &TestApp) {
        let user = register(app, "gamemaster");
        let mut a = side("Red", "neutral", "cautious", json!({"mission": mission_dice(&[("patrol", 6)])}));
        a["recon_unit_ids"] = json!(["Scouts"]);
        let b = side("Blue", "defensive", "passive", json!({"mission": mission_dice(&[("hold", 6)])}));
        let body = create(app, &user, &json!({"sides": [a, b]}));
        let (red, blue) = (&body["sides"][0], &body["sides"][1]);
        assert_eq!(red["force_id"], "side_1");
        assert_eq!(red["mission"], "patrol");
        // Neutral +2 on Patrol; Cautious +1 on Expand, Infiltrate and Interfere (§3.5).
        assert_eq!(red["mission_totals"], json!({"assault": 1, "expand": 2, "hold": 1, "infiltrate": 2, "interfere": 2, "patrol": 8, "strike": 1, "sweep": 1}));
        assert_eq!(blue["mission"], "hold");
        assert_eq!(blue["mission_totals"]["hold"], 10);
        assert_eq!(body["escalating_engagement"], false);
        assert_eq!(body["forces"][1], json!({"force_id": "side_2", "name": "Blue", "stored": false}));
        let missions = rolls(&body, "mission");
        assert_eq!(missions.len(), 16);
        assert!(missions.iter().all(|r| r["source"] == "player" && r["dice"] == "1d6"));
        assert!(rolls(&body, "mission_tie").is_empty());
        // Recon duty by the inline unit's name; its return roll is the server's.
        assert_eq!(red["recon_unit_ids"], json!(["s1-u2"]));
        assert_eq!(red["recon_duty"][0]["unit_id"], "s1-u2");
        assert_eq!(rolls(&body, "recon_return")[0]["source"], "server");
        assert_eq!(body["unused_dice"], json!({}));
        for key in ["recon_points", "table_edge_roll", "deployment_zone_inches", "contact_markers", "bonus", "pre_battle_events"] {
            assert!(!red[key].is_null(), "{key} missing: {red}");
        }
        assert!(body["table_edge_chooser"].is_string() && body["objectives"].is_array());
    }

    fn tied_top_missions_are_picked_by_a_logged_mission_tie_die(app: &TestApp) {
        let user = register(app, "gamemaster");
        let a = side("Red", "neutral", "cautious", json!({
            "mission": mission_dice(&[("expand", 5), ("infiltrate", 5)]),
            "mission_tie": {"side_1": [2]}
        }));
        let b = side("Blue", "defensive", "passive", json!({"mission": mission_dice(&[("hold", 6)])}));
        let body = create(app, &user, &json!({"sides": [a, b]}));
        let red = &body["sides"][0];
        assert_eq!(red["tied_missions"], json!(["expand", "infiltrate"]));
        assert_eq!(red["mission"], "infiltrate");
        let tie = rolls(&body, "mission_tie");
        assert_eq!(tie.len(), 1);
        assert_eq!(tie[0]["dice"], "1d2");
        assert_eq!(tie[0]["values"], json!([2]));
        assert_eq!(tie[0]["source"], "player");
        assert_eq!(tie[0]["force_id"], "side_1");
        // Without an entered value the server picks, and still logs the pick.
        let a = side("Red", "neutral", "cautious", json!({"mission": mission_dice(&[("expand", 5), ("infiltrate", 5)])}));
        let b = side("Blue", "defensive", "passive", json!({"mission": mission_dice(&[("hold", 6)])}));
        let body = create(app, &user, &json!({"sides": [a, b]}));
        let tie = rolls(&body, "mission_tie");
        assert_eq!(tie[0]["source"], "server");
        let picked = ["expand", "infiltrate"][tie[0]["values"][0].as_u64().unwrap() as usize - 1];
        assert_eq!(body["sides"][0]["mission"], picked);
    }

    fn the_same_mission_on_both_sides_is_an_escalating_engagement(app: &TestApp) {
        let user = register(app, "gamemaster");
        let a = side("Red", "neutral", "cautious", json!({"mission": mission_dice(&[("patrol", 6)])}));
        let b = side("Blue", "neutral", "aggressive", json!({"mission": mission_dice(&[("patrol", 6)])}));
        let body = create(app, &user, &json!({"sides": [a, b]}));
        assert_eq!(body["escalating_engagement"], true);
        assert_eq!(body["sides"][0]["mission"], "escalating_engagement");
        assert_eq!(body["sides"][1]["mission"], "escalating_engagement");
        // S19: no recon return roll in an Escalating Engagement.
        assert!(rolls(&body, "recon_return").is_empty());
    }

    fn a_stored_force_plays_a_side_and_only_for_those_who_may_read_it(app: &TestApp) {
        // Arrange: the shared world has a force owned by `owner`.
        let people = crate::campaigns::People::register(app);
        let world = crate::campaigns::World::build(app, &people);
        let stored = json!({"force_id": world.force_id, "stance": "neutral", "attitude": "cautious"});
        let mut npf = force("Bandits");
        npf["non_player"] = json!(true);
        let body = json!({"sides": [stored, npf]});

        // Act
        let created = create(app, &people.owner, &body);
        let refused = app.post_json_with_token("/api/v1/scenarios", &body, &people.outsider.token);

        // Assert
        assert_eq!(created["forces"][0]["force_id"], world.force_id.as_str());
        assert_eq!(created["forces"][0]["stored"], true);
        assert_eq!(created["sides"][0]["stance"], "neutral");
        let problem = assert_problem(refused, 422);
        assert_eq!(problem["errors"][0]["field"], "sides[0].force_id", "{problem}");
    }

    fn a_non_player_force_rolls_its_stance_and_attitude(app: &TestApp) {
        let user = register(app, "gamemaster");
        let a = side("Red", "offensive", "aggressive", json!({}));
        let mut b = force("Bandits");
        b["non_player"] = json!(true);
        let body = create(app, &user, &json!({"sides": [a, b], "narrative": true}));
        let npf = &body["sides"][1];
        assert_eq!(npf["non_player"], true);
        assert!(npf["stance"].is_string() && npf["attitude"].is_string() && npf["mission"].is_string());
        assert_eq!(rolls(&body, "npf_stance").len(), 1);
        assert_eq!(rolls(&body, "npf_attitude").len(), 1);
        assert_eq!(rolls(&body, "mission").len(), 16);
        // Narrative: three world tables and one per side.
        assert_eq!(rolls(&body, "narrative").len(), 5);
        assert!(body["narrative"]["region"].is_string());
        // A chosen stance is kept, not rolled.
        let mut b = force("Bandits");
        b["non_player"] = json!(true);
        b["stance"] = json!("defensive");
        let body = create(app, &user, &json!({"sides": [side("Red", "offensive", "aggressive", json!({})), b]}));
        assert_eq!(body["sides"][1]["stance"], "defensive");
        assert!(rolls(&body, "npf_stance").is_empty());
    }

    fn bad_dice_and_choices_are_refused_with_their_path(app: &TestApp) {
        let user = register(app, "gamemaster");
        let cases = [
            (json!({"mission": {"hold": [7]}}), "sides[0].dice.mission.hold"),
            (json!({"mission": {"nap": [3]}}), "sides[0].dice.mission.nap"),
            (json!({"bogus": {"x": [3]}}), "sides[0].dice.bogus"),
            (json!({"recon_return": {"Nobody": [3]}}), "sides[0].dice.recon_return.Nobody"),
        ];
        for (dice, field) in cases {
            let a = side("Red", "neutral", "cautious", dice);
            let b = side("Blue", "neutral", "cautious", json!({}));
            let body = assert_problem(app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [a, b]}), &user.token), 422);
            assert!(body["errors"].as_array().unwrap().iter().any(|e| e["field"] == field), "{field}: {body}");
        }
        let mut a = side("Red", "neutral", "cautious", json!({}));
        a["mission_bonuses"] = json!(["hold", "hold"]);
        a.as_object_mut().unwrap().remove("attitude");
        let b = side("Blue", "neutral", "cautious", json!({}));
        let body = assert_problem(app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [a, b]}), &user.token), 422);
        let fields: Vec<&str> = body["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert!(fields.contains(&"sides[0].mission_bonuses[1]") && fields.contains(&"sides[0].attitude"), "{body}");
        let body = assert_problem(app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [force("A")]}), &user.token), 422);
        assert_eq!(body["errors"][0]["field"], "sides");
        // Two values for a one-die roll are refused, not half-used.
        let a = side("Red", "neutral", "cautious", json!({"mission": {"hold": [3, 4]}}));
        let body = assert_problem(app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [a, side("Blue", "neutral", "cautious", json!({}))]}), &user.token), 422);
        assert_eq!(body["errors"][0]["field"], "sides[0].dice.mission.hold", "{body}");
        // Values for a roll the rules never call for are returned, not silently dropped.
        let a = side("Red", "neutral", "cautious", json!({"pre_battle_event_table": {"s1-u1": [4]}, "pre_battle_event": {"s1-u1": [2]}}));
        let body = create(app, &user, &json!({"sides": [a, side("Blue", "neutral", "cautious", json!({}))]}));
        assert_eq!(body["unused_dice"], json!({"side_1": {"pre_battle_event_table": {"s1-u1": [4]}}}));
    }

    fn scenarios_are_private_to_their_creator_unless_shared(app: &TestApp) {
        let gm = register(app, "gamemaster");
        let other = register(app, "other");
        let body = json!({"sides": [side("Red", "neutral", "cautious", json!({})), side("Blue", "offensive", "passive", json!({}))]});
        let created = create(app, &gm, &body);
        assert!(created.get("share_url").is_none());
        assert_eq!(created["shared"], false);
        let id = created["id"].as_str().unwrap();
        let read = app.get_with_token(&format!("/api/v1/scenarios/{id}"), &gm.token);
        assert_eq!(read.status(), 200);
        assert_eq!(read.json::<Value>().unwrap(), created);
        assert_problem(app.get_with_token(&format!("/api/v1/scenarios/{id}"), &other.token), 404);
        assert_problem(app.get(&format!("/api/v1/scenarios/{id}")), 401);
        assert_problem(app.get_with_token("/api/v1/scenarios/no-such-id", &gm.token), 404);

        let mut shared_body = body.clone();
        shared_body["share"] = json!(true);
        let shared = create(app, &gm, &shared_body);
        let api_url = shared["share_api_url"].as_str().unwrap();
        let token = api_url.rsplit('/').next().unwrap();
        assert_eq!(token.len(), 43, "256-bit token, base64url");
        assert_eq!(shared["share_url"], format!("/scenarios/shared/{token}"));
        let read = app.get(api_url);
        assert_eq!(read.status(), 200);
        let read: Value = read.json().unwrap();
        assert_eq!(read["id"], shared["id"]);
        assert_eq!(read["rolls"], shared["rolls"]);
        assert!(read.get("share_url").is_none());
        assert_problem(app.get(&format!("/api/v1/scenarios/shared/{}", "0".repeat(64))), 404);
    }

    fn an_idempotency_key_replays_the_first_scenario_and_rolls_nothing_new(app: &TestApp) {
        let gm = register(app, "gamemaster");
        let body = json!({"sides": [side("Red", "neutral", "cautious", json!({})), side("Blue", "offensive", "passive", json!({}))]});
        let post = |b: &Value, key: &str| send(app.request(Method::POST, "/api/v1/scenarios").bearer_auth(&gm.token).header("Idempotency-Key", key).json(b));
        let first = post(&body, "k1");
        assert_eq!(first.status(), 201);
        let first: Value = first.json().unwrap();
        let again = post(&body, "k1");
        assert_eq!(again.status(), 201, "a replay answers with the first status");
        assert_eq!(again.json::<Value>().unwrap(), first);
        let mut other = body.clone();
        other["narrative"] = json!(true);
        assert_problem(post(&other, "k1"), 422);
        let fresh = post(&body, "k2");
        assert_eq!(fresh.status(), 201);
        assert_ne!(fresh.json::<Value>().unwrap()["id"], first["id"]);
    }
}
