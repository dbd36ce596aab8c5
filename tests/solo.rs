//! Solo play (docs/rules.md `solo`): a battle's non-player side split into groups, each turn's
//! Discipline Tests with entered dice (every result: 3, 2, 1 and 0 passes), falling back until
//! the player says the group arrived, the 50 % casualty step (never past 5+), every refusal in
//! the house's order, ten turns, the roll log, the one-shot scenario path, on both backends.

use crate::auth::register;
use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem, ok, send};
use reqwest::Method;
use serde_json::{Value, json};

/// The non-player Militia: two units in the 1st platoon (Regular 6, Conscript 4: 10 figures),
/// one Elite unit of 5 in the 2nd.
pub(crate) fn militia() -> Value {
    json!({"name": "Militia", "platoons": [
        {"name": "1st Platoon", "units": [
            {"name": "Rifles", "kind": "squad", "quality": "regular", "strength": 6},
            {"name": "Gunners", "kind": "squad", "quality": "conscript", "strength": 4}]},
        {"name": "2nd Platoon", "units": [
            {"name": "Veterans", "kind": "squad", "quality": "elite", "strength": 5}]}
    ]})
}

pub(crate) struct Solo {
    pub(crate) people: People,
    world: World,
    battle: String,
}

impl Solo {
    pub(crate) fn path(&self, rest: &str) -> String {
        format!("/api/v1/battles/{}/solo{rest}", self.battle)
    }
}

/// A battle of the owner's Blue against the Militia, created but not set up.
pub(crate) fn battle(app: &TestApp) -> Solo {
    let people = People::register(app);
    let world = World::build(app, &people);
    let blue = crate::forces::create_force(
        app,
        &people.owner,
        &world.campaign_id,
        &json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
            {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
             "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}]}]}),
    );
    let r = app.post_json_with_token(
        &format!("/api/v1/campaigns/{}/battles", world.campaign_id),
        &json!({"sides": [{"force_id": blue["id"]}, {"non_player": militia()}]}),
        &people.owner.token,
    );
    assert_eq!(r.status(), 201);
    let battle = r.json::<Value>().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    Solo {
        people,
        world,
        battle,
    }
}

/// Plays the scenario to `ready`: Blue's orders and bonuses, then passes in recon.
pub(crate) fn set_up(app: &TestApp, s: &Solo) {
    play_to_ready(app, &s.people.owner.token, &s.battle);
}

/// Plays battle `battle`'s scenario against a non-player side to `ready` as the player side's
/// owner (`token`): orders, bonuses with Patrol alone rolling high, then passes in recon.
pub(crate) fn play_to_ready(app: &TestApp, token: &str, battle: &str) {
    let path = |step: &str| format!("/api/v1/battles/{battle}/scenario/{step}");
    let blue =
        ok(app.get_with_token(&format!("/api/v1/battles/{battle}/scenario"), token))["waiting_for"]
            [0]
        .as_str()
        .unwrap()
        .to_owned();
    ok(app.post_json_with_token(
        &path("orders"),
        &json!({"force_id": blue, "stance": "neutral", "attitude": "cautious"}),
        token,
    ));
    let mut v = ok(app.post_json_with_token(
        &path("mission-bonuses"),
        // Patrol alone rolls high, so Blue has no tie to choose.
        &json!({"force_id": blue, "missions": ["patrol", "sweep"], "dice": {"mission": {
            "assault": [1], "expand": [1], "hold": [1], "infiltrate": [1], "interfere": [1],
            "patrol": [6], "strike": [1], "sweep": [1]}}}),
        token,
    ));
    for _ in 0..20 {
        if v["state"] == "ready" {
            break;
        }
        assert_eq!(v["state"], "recon", "{v}");
        v = ok(app.post_json_with_token(
            &path("recon-actions"),
            &json!({"force_id": blue, "action": "pass"}),
            token,
        ));
    }
    assert_eq!(v["state"], "ready");
}

/// The unit ids of the Militia by name, from `GET .../solo`.
fn units(view: &Value) -> std::collections::BTreeMap<String, String> {
    view["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["name"].as_str().unwrap().to_owned(),
                u["id"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

pub(crate) fn groups_body(view: &Value) -> Value {
    let u = units(view);
    json!({"groups": [
        {"name": "Left", "units": [u["Rifles"], u["Gunners"]], "approach": "target",
         "objective": "the farmhouse", "rallying_point": "the woods"},
        {"name": "Right", "units": [u["Veterans"]], "approach": "hold", "discipline": 5}
    ]})
}

fn turn(app: &TestApp, s: &Solo, body: Value) -> Value {
    ok(app.post_json_with_token(&s.path("/turns"), &body, &s.people.owner.token))
}

fn group<'a>(turn: &'a Value, name: &str) -> &'a Value {
    turn["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {turn}"))
}

fn field(problem: &Value) -> &str {
    problem["errors"][0]["field"].as_str().unwrap_or_default()
}

both_backends! {
    fn every_discipline_result_falling_back_and_the_casualty_step(app: &TestApp) {
        let s = battle(app);
        set_up(app, &s);
        let view = ok(app.get_with_token(&s.path(""), &s.people.owner.token));
        assert_eq!(view["open"], true);
        assert_eq!(view["can_act"], true);
        assert_eq!(view["next_turn"], 1);
        assert_eq!(view["force_name"], "Militia");
        let set = ok(app.put_json_with_token(&s.path("/groups"), &groups_body(&view), &s.people.owner.token));
        // Left's default Discipline is the worst Quality target of its units (Conscript: 4+).
        assert_eq!(set["groups"][0]["discipline"], 4);
        assert_eq!(set["groups"][0]["figures"], 10);
        assert_eq!(set["groups"][1]["discipline"], 5);
        assert_eq!(set["version"], 1);

        // Turn 1: 3 passes and 2 passes carry out the approach.
        let t = turn(app, &s, json!({"dice": {"discipline": {"Left": [4, 5, 6], "Right": [5, 6, 1]}}}));
        assert_eq!(t["turn"], 1);
        let left = group(&t, "Left");
        assert_eq!((left["passes"].as_u64(), left["result"].as_str()), (Some(3), Some("carry_out")));
        assert!(left["orders"].as_str().unwrap().starts_with("Target: Moves at combat speed toward its objective"), "{left}");
        assert!(left["orders"].as_str().unwrap().ends_with("Objective: the farmhouse."), "{left}");
        assert_eq!(left["rules_url"], "/rules#solo-target");
        let right = group(&t, "Right");
        assert_eq!((right["passes"].as_u64(), right["result"].as_str()), (Some(2), Some("carry_out")));
        assert_eq!(right["rules_url"], "/rules#solo-hold");
        let rolls = t["rolls"].as_array().unwrap();
        assert_eq!(rolls.len(), 2);
        assert_eq!(rolls[0]["step"], "discipline");
        assert_eq!(rolls[0]["subject"], "Left");
        assert_eq!(rolls[0]["dice"], "3d6");
        assert_eq!(rolls[0]["values"], json!([4, 5, 6]));
        assert_eq!(rolls[0]["source"], "player");
        assert_eq!(rolls[0]["force_id"], "non_player");

        // Turn 2: 1 pass holds; 0 passes falls back.
        let t = turn(app, &s, json!({"dice": {"discipline": {"Left": [4, 1, 1], "Right": [1, 2, 3]}}}));
        assert_eq!(group(&t, "Left")["result"], "hold");
        assert_eq!(group(&t, "Left")["passes"], 1);
        assert_eq!(group(&t, "Left")["rules_url"], "/rules#solo-one-pass");
        assert_eq!(group(&t, "Right")["result"], "fall_back");
        assert_eq!(group(&t, "Right")["passes"], 0);
        assert_eq!(group(&t, "Right")["rules_url"], "/rules#solo-no-pass");

        // Turn 3: Right is on its way and takes no test; its entered dice go unused.
        let t = turn(app, &s, json!({"dice": {"discipline": {"Left": [3, 4, 4], "Right": [6, 6, 6]}}}));
        assert_eq!(group(&t, "Left")["result"], "carry_out");
        assert_eq!(group(&t, "Right")["result"], "falling_back");
        assert!(group(&t, "Right").get("passes").is_none());
        assert_eq!(t["rolls"].as_array().unwrap().len(), 1);
        assert_eq!(t["unused_dice"], json!({"discipline": {"Right": [6, 6, 6]}}));
        // Only a falling-back group can arrive.
        let p = assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({"arrived": ["Left"]}), &s.people.owner.token), 422);
        assert_eq!(field(&p), "arrived[0]");

        // Turn 4: Right arrived and tests again.
        let t = turn(app, &s, json!({"arrived": ["Right"], "dice": {"discipline": {"Right": [5, 5, 5], "Left": [6, 2, 3]}}}));
        assert_eq!(group(&t, "Right")["result"], "carry_out");
        assert_eq!(group(&t, "Right")["passes"], 3);
        assert_eq!(group(&t, "Left")["result"], "hold");

        // Casualties: 4 of Left's 10 figures change nothing; the 5th is half: 4+ becomes 5+.
        let c = ok(app.post_json_with_token(&s.path("/groups/Left/casualties"), &json!({"lost": 4}), &s.people.owner.token));
        assert_eq!(c["group"]["casualties"], 4);
        assert_eq!(c["group"]["discipline"], 4);
        assert_eq!(c["entry"]["aborted"], false);
        let c = ok(app.post_json_with_token(&s.path("/groups/Left/casualties"), &json!({"lost": 1}), &s.people.owner.token));
        assert_eq!(c["group"]["casualties"], 5);
        assert_eq!(c["group"]["discipline"], 5);
        assert_eq!(c["group"]["aborted"], true);
        assert_eq!(c["entry"]["aborted"], true);
        // More losses do not worsen it again; Right at 5+ stays at 5+ when it aborts.
        let c = ok(app.post_json_with_token(&s.path("/groups/Left/casualties"), &json!({"lost": 2}), &s.people.owner.token));
        assert_eq!(c["group"]["discipline"], 5);
        let c = ok(app.post_json_with_token(&s.path("/groups/Right/casualties"), &json!({"lost": 3}), &s.people.owner.token));
        assert_eq!(c["entry"]["aborted"], true);
        assert_eq!(c["group"]["discipline"], 5);
        // Refusals: nothing lost, more than is left, no such group.
        let p = assert_problem(app.post_json_with_token(&s.path("/groups/Right/casualties"), &json!({"lost": 0}), &s.people.owner.token), 422);
        assert_eq!(field(&p), "lost");
        let p = assert_problem(app.post_json_with_token(&s.path("/groups/Right/casualties"), &json!({"lost": 3}), &s.people.owner.token), 422);
        assert_eq!(field(&p), "lost");
        assert!(p["errors"][0]["message"].as_str().unwrap().contains("only 2"), "{p}");
        assert_problem(app.post_json_with_token(&s.path("/groups/Nobody/casualties"), &json!({"lost": 1}), &s.people.owner.token), 404);

        // Turn 5: Left now tests at 5+: 4, 4, 4 is no pass.
        let t = turn(app, &s, json!({"dice": {"discipline": {"Left": [4, 4, 4], "Right": [5, 1, 1]}}}));
        assert_eq!(group(&t, "Left")["discipline"], 5);
        assert_eq!(group(&t, "Left")["result"], "fall_back");
        assert_eq!(group(&t, "Left")["casualties"], 7);
        assert_eq!(group(&t, "Right")["result"], "hold");

        // Turns 6–10 with server dice; falling-back groups arrive each time.
        for n in 6..=10 {
            let view = ok(app.get_with_token(&s.path(""), &s.people.owner.token));
            let arrived: Vec<&str> = view["groups"].as_array().unwrap().iter()
                .filter(|g| g["falling_back"] == true).map(|g| g["name"].as_str().unwrap()).collect();
            let t = turn(app, &s, json!({"arrived": arrived}));
            assert_eq!(t["turn"], n);
            for roll in t["rolls"].as_array().unwrap() {
                assert_eq!(roll["source"], "server");
                assert_eq!(roll["step"], "discipline");
            }
        }

        // The log: ten turns, every Discipline roll of them, readable by members and the key.
        let view = ok(app.get_with_token(&s.path(""), &s.people.player.token));
        assert_eq!(view["turns"].as_array().unwrap().len(), 10);
        assert_eq!(view["next_turn"], 11);
        assert_eq!(view["can_act"], false);
        let rolls = view["rolls"].as_array().unwrap();
        assert!(rolls.len() >= 2 + 2 + 1 + 2 + 2 + 5, "{}", rolls.len());
        assert!(rolls.iter().all(|r| r["step"] == "discipline" && r["dice"] == "3d6"));
        assert_eq!(rolls.iter().filter(|r| r["source"] == "player").count(), 9);
        assert_eq!(view["casualty_log"].as_array().unwrap().len(), 4);
        let by_key = ok(send(app.request(Method::GET, &s.path("")).header("X-Api-Key", &s.world.key)));
        assert_eq!(by_key["turns"].as_array().unwrap().len(), 10);

        // Groups are fixed once a turn is played.
        let p = assert_problem(app.put_json_with_token(&s.path("/groups"), &groups_body(&view), &s.people.owner.token), 409);
        assert!(p["detail"].as_str().unwrap().contains("Turn 10"), "{p}");
    }

    fn refusals_come_in_the_house_order(app: &TestApp) {
        let s = battle(app);
        let view = ok(app.get_with_token(&s.path(""), &s.people.owner.token));
        assert_eq!(view["open"], false);
        assert!(view["closed_because"].as_str().unwrap().contains("not set up"), "{view}");
        let body = groups_body(&view);
        // Before set-up: invalid groups are 422, valid ones 409.
        let mut bad = body.clone();
        bad["groups"][0]["units"] = json!([]);
        let p = assert_problem(app.put_json_with_token(&s.path("/groups"), &bad, &s.people.owner.token), 422);
        assert_eq!(field(&p), "groups[0].units");
        let p = assert_problem(app.put_json_with_token(&s.path("/groups"), &body, &s.people.owner.token), 409);
        assert!(p["detail"].as_str().unwrap().contains("not set up"), "{p}");
        assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({}), &s.people.owner.token), 409);
        set_up(app, &s);
        // No groups yet: a turn is 409.
        assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({}), &s.people.owner.token), 409);
        // A non-member: 404; a member who plays neither side and is not the organiser: 403,
        // even with an invalid body; no credentials: 401.
        assert_problem(app.put_json_with_token(&s.path("/groups"), &body, &s.people.outsider.token), 404);
        assert_problem(app.get_with_token(&s.path(""), &s.people.outsider.token), 404);
        assert_problem(app.put_json_with_token(&s.path("/groups"), &bad, &s.people.player.token), 403);
        assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({}), &s.people.player.token), 403);
        assert_problem(send(app.request(Method::PUT, &s.path("/groups")).json(&body)), 401);
        let u = units(&view);
        // A group over a platoon.
        let over = json!({"groups": [{"name": "All", "units": [u["Rifles"], u["Veterans"]], "approach": "engage"}]});
        let p = assert_problem(app.put_json_with_token(&s.path("/groups"), &over, &s.people.owner.token), 422);
        assert_eq!(field(&p), "groups[0].units");
        assert!(p["errors"][0]["message"].as_str().unwrap().contains("at most a platoon"), "{p}");
        // A unit in two groups.
        let twice = json!({"groups": [
            {"name": "A", "units": [u["Rifles"]], "approach": "engage"},
            {"name": "B", "units": [u["Rifles"], u["Gunners"]], "approach": "hold"}]});
        let p = assert_problem(app.put_json_with_token(&s.path("/groups"), &twice, &s.people.owner.token), 422);
        assert_eq!(field(&p), "groups[1].units[0]");
        // A unit not in the force, a blank and a repeated name, a Discipline of 6.
        let other = json!({"groups": [
            {"name": "A", "units": ["s1-u1"], "approach": "engage"},
            {"name": " ", "units": [u["Gunners"]], "approach": "hold"},
            {"name": "a", "units": [u["Veterans"]], "approach": "hold", "discipline": 6}]});
        let p = assert_problem(app.put_json_with_token(&s.path("/groups"), &other, &s.people.owner.token), 422);
        let fields: Vec<&str> = p["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(fields, ["groups[0].units[0]", "groups[1].name", "groups[2].name", "groups[2].discipline"], "{p}");
        // An unknown approach is refused before anything runs.
        let p = app.put_json_with_token(&s.path("/groups"), &json!({"groups": [{"name": "A", "units": [u["Rifles"]], "approach": "charge"}]}), &s.people.owner.token);
        assert!(matches!(p.status().as_u16(), 400 | 422));
        // Nothing was stored by any refusal.
        assert_eq!(ok(app.get_with_token(&s.path(""), &s.people.owner.token))["version"], 0);

        // The organiser may run it too; a stale version is 409.
        let set = ok(app.put_json_with_token(&s.path("/groups"), &body, &s.people.organiser.token));
        assert_eq!(set["version"], 1);
        let mut stale = body.clone();
        stale["version"] = json!(0);
        assert_problem(app.put_json_with_token(&s.path("/groups"), &stale, &s.people.owner.token), 409);
        // Entered dice: wrong count, a face that is not one, a group that does not exist, a
        // step that is not rolled here.
        for (dice, at) in [
            (json!({"discipline": {"Left": [4, 4]}}), "dice.discipline.Left"),
            (json!({"discipline": {"Left": [4, 4, 7]}}), "dice.discipline.Left"),
            (json!({"discipline": {"Nobody": [4, 4, 4]}}), "dice.discipline.Nobody"),
            (json!({"mission": {"Left": [4]}}), "dice.mission"),
        ] {
            let p = assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({"dice": dice}), &s.people.owner.token), 422);
            assert_eq!(field(&p), at, "{p}");
        }
        assert_eq!(ok(app.get_with_token(&s.path(""), &s.people.owner.token))["turns"], json!([]));
        // Idempotency-Key: the same key and body replays the first answer and rolls nothing.
        let send_turn = || send(app.request(Method::POST, &s.path("/turns"))
            .bearer_auth(&s.people.owner.token).header("Idempotency-Key", "turn-one").json(&json!({})));
        let first = ok(send_turn());
        let again = ok(send_turn());
        assert_eq!(first, again);
        let view = ok(app.get_with_token(&s.path(""), &s.people.owner.token));
        assert_eq!(view["turns"].as_array().unwrap().len(), 1);
        // A turn with the version seen before it is stale.
        assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({"version": 1}), &s.people.owner.token), 409);
        // The battle's result closes solo play: reads stay, writes are 409.
        let r = app.post_json_with_token(&format!("/api/v1/battles/{}/result", s.battle), &json!({"outcome": "draw"}), &s.people.organiser.token);
        assert!(r.status().is_success(), "{}", r.text().unwrap());
        let view = ok(app.get_with_token(&s.path(""), &s.people.owner.token));
        assert_eq!(view["open"], false);
        assert!(view["closed_because"].as_str().unwrap().contains("has a result"), "{view}");
        let p = assert_problem(app.post_json_with_token(&s.path("/turns"), &json!({}), &s.people.owner.token), 409);
        assert!(p["detail"].as_str().unwrap().contains("has a result"), "{p}");
        assert_problem(app.post_json_with_token(&s.path("/groups/Left/casualties"), &json!({"lost": 1}), &s.people.owner.token), 409);
    }

    fn a_battle_without_a_non_player_side_has_no_solo_play(app: &TestApp) {
        let g = crate::battle_scenarios::Game::new(app);
        let path = format!("/api/v1/battles/{}/solo", g.battle);
        let p = assert_problem(app.get_with_token(&path, &g.people.owner.token), 409);
        assert!(p["detail"].as_str().unwrap().contains("no non-player side"), "{p}");
        assert_problem(app.put_json_with_token(&format!("{path}/groups"), &json!({"groups": []}), &g.people.owner.token), 409);
        assert_problem(app.post_json_with_token(&format!("{path}/turns"), &json!({}), &g.people.owner.token), 409);
    }

    fn a_one_shot_scenario_runs_its_non_player_side(app: &TestApp) {
        let user = register(app, "solitaire");
        let other = register(app, "onlooker");
        let mut npf = militia();
        npf["non_player"] = json!(true);
        let player = json!({"name": "Blue", "stance": "neutral", "attitude": "cautious", "units": [
            {"name": "Alpha", "kind": "squad", "resolve": "steady"}]});
        let r = app.post_json_with_token("/api/v1/scenarios", &json!({"sides": [player, npf]}), &user.token);
        assert_eq!(r.status(), 201, "{}", r.text().unwrap());
        let id = r.json::<Value>().unwrap()["id"].as_str().unwrap().to_owned();
        let path = |rest: &str| format!("/api/v1/scenarios/{id}/solo{rest}");
        let view = ok(app.get_with_token(&path(""), &user.token));
        assert_eq!(view["open"], true);
        assert_eq!(units(&view).len(), 3);
        assert_problem(app.get_with_token(&path(""), &other.token), 404);
        assert_problem(app.put_json_with_token(&path("/groups"), &groups_body(&view), &other.token), 404);
        ok(app.put_json_with_token(&path("/groups"), &groups_body(&view), &user.token));
        let t = ok(app.post_json_with_token(&path("/turns"), &json!({"dice": {"discipline": {"Left": [6, 6, 1], "Right": [1, 1, 1]}}}), &user.token));
        assert_eq!(group(&t, "Left")["result"], "carry_out");
        assert_eq!(group(&t, "Right")["result"], "fall_back");
        assert_eq!(t["rolls"][0]["step"], "discipline");
        assert_eq!(t["rolls"][0]["force_id"], "side_2");
        let c = ok(app.post_json_with_token(&path("/groups/Right/casualties"), &json!({"lost": 3}), &user.token));
        assert_eq!(c["group"]["aborted"], true);
        let view = ok(app.get_with_token(&path(""), &user.token));
        assert_eq!(view["turns"].as_array().unwrap().len(), 1);
        assert_eq!(view["rolls"].as_array().unwrap().len(), 2);
    }
}
