//! Rules found wrong by an audit against the FAD 5th edition text (docs/rules.md C16, S14, §1.13,
//! §3.3, §3.6, S12, C2, C4) and the confirmation of results, on both backends with entered
//! dice and values computed by hand:
//! - an unrepaired damaged vehicle is not fielded: no True marker, no recon duty, no pre-battle
//!   event;
//! - self-less Droid Troopers are Relentless: no recon duty, −1 dummy marker;
//! - night fighting adds a logged, enterable 1d6 of dummy markers per side;
//! - every mission-bonus trait names its unit (id and name), secret like the mission;
//! - contradictory losses are refused line by line;
//! - an organiser who plays a side does not confirm their own result.

use crate::auth::TestUser;
use crate::campaigns::{People, World};
use crate::common::{TestApp, assert_problem, ok, rolls, side, unit_id};
use reqwest::blocking::Response;
use serde_json::{Value, json};

/// Blue: Alpha (a squad), Droids (self-less Droid Troopers) and Rhino (a vehicle left damaged).
fn blue_roster() -> Value {
    json!({"name": "Blue", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Alpha", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Droids", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles",
         "traits": ["droid_troopers"], "trait_options": {"droid_self_less": true}},
        {"name": "Rhino", "kind": "vehicle", "quality": "regular", "resolve": null,
         "strength": 1, "starting_strength": 1,
         "vehicle": {"mobility": "tracked", "armour": {"front": 5, "side": 4, "rear": 3}, "crew": 3},
         "vehicle_state": "damaged"}
    ]}]})
}

/// Red: Delta and Echo, two squads.
fn red_roster() -> Value {
    json!({"name": "Red", "platoons": [{"name": "1st Platoon", "units": [
        {"name": "Delta", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"},
        {"name": "Echo", "kind": "squad", "quality": "regular", "resolve": "steady",
         "strength": 6, "starting_strength": 6, "armour": "improved", "basic_weapon": "assault_rifles"}
    ]}]})
}

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

/// A Blue (owner) – Red (player) battle, by day or at night.
struct Game {
    people: People,
    blue: Value,
    red: Value,
    battle: Value,
}

impl Game {
    fn new(app: &TestApp, night_fighting: bool) -> Self {
        let people = People::register(app);
        let world = World::build(app, &people);
        let blue =
            crate::forces::create_force(app, &people.owner, &world.campaign_id, &blue_roster());
        let red =
            crate::forces::create_force(app, &people.player, &world.campaign_id, &red_roster());
        let r = app.post_json_with_token(
            &format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": blue["id"]}, {"force_id": red["id"]}],
                    "night_fighting": night_fighting}),
            &people.owner.token,
        );
        assert_eq!(r.status(), 201);
        let battle = r.json::<Value>().unwrap();
        Self {
            people,
            blue,
            red,
            battle,
        }
    }

    fn id(&self) -> &str {
        self.battle["id"].as_str().unwrap()
    }

    fn blue_id(&self) -> String {
        self.blue["id"].as_str().unwrap().to_owned()
    }

    fn red_id(&self) -> String {
        self.red["id"].as_str().unwrap().to_owned()
    }

    fn post(&self, app: &TestApp, user: &TestUser, step: &str, body: &Value) -> Response {
        app.post_json_with_token(
            &format!("/api/v1/battles/{}/scenario/{step}", self.id()),
            body,
            &user.token,
        )
    }

    fn scenario(&self, app: &TestApp, user: &TestUser) -> Value {
        ok(app.get_with_token(
            &format!("/api/v1/battles/{}/scenario", self.id()),
            &user.token,
        ))
    }

    fn sheet(&self, app: &TestApp, user: &TestUser) -> String {
        app.get_with_token(
            &format!("/api/v1/battles/{}/scenario/sheet", self.id()),
            &user.token,
        )
        .text()
        .unwrap()
    }

    /// Plays the scenario to `ready`: both Offensive/Aggressive (RP 1 + 2 = 3), no recon duty;
    /// edge Blue 3 + 3 = 6 < Red 4 + 3 = 7; Blue rolls Assault (6 + 2 + 1 = 9), Red Sweep
    /// (6 + 1 + 2 = 9); every pre-battle die entered as 1 for the units expected to roll;
    /// `blue_night` is Blue's entered night-fighting die (Red's is the server's); both pass
    /// in step 7.
    fn play(&self, app: &TestApp, blue_night: Option<u8>) -> Value {
        let (blue, red) = (self.blue_id(), self.red_id());
        let (owner, player) = (&self.people.owner, &self.people.player);
        let mut blue_dice = json!({"table_edge": {blue.clone(): [3]},
            "mission": mission_dice(&[("assault", 6)]),
            "pre_battle_event": {unit_id(&self.blue, "Alpha"): [1],
                unit_id(&self.blue, "Droids"): [1], "offensive_artillery": [1]}});
        if let Some(n) = blue_night {
            blue_dice["night_fighting"] = json!({blue.clone(): [n]});
        }
        ok(self.post(
            app,
            owner,
            "orders",
            &json!({"force_id": blue,
            "stance": "offensive", "attitude": "aggressive", "dice": blue_dice}),
        ));
        ok(self.post(
            app,
            player,
            "orders",
            &json!({"force_id": red,
            "stance": "offensive", "attitude": "aggressive",
            "dice": {"table_edge": {red.clone(): [4]}, "mission": mission_dice(&[("sweep", 6)]),
                "pre_battle_event": {unit_id(&self.red, "Delta"): [1],
                    unit_id(&self.red, "Echo"): [1], "offensive_artillery": [1]}}}),
        ));
        ok(self.post(
            app,
            owner,
            "mission-bonuses",
            &json!({"force_id": blue, "missions": []}),
        ));
        let v = ok(self.post(
            app,
            player,
            "mission-bonuses",
            &json!({"force_id": red, "missions": []}),
        ));
        assert_eq!(v["state"], "recon", "{v}");
        // Whoever has more markers starts step 7; both pass, which ends it (S16).
        let first = v["first_to_place_markers"].as_str().unwrap().to_owned();
        let (a, b) = if first == blue {
            ((owner, &blue), (player, &red))
        } else {
            ((player, &red), (owner, &blue))
        };
        ok(self.post(
            app,
            a.0,
            "recon-actions",
            &json!({"force_id": a.1, "action": "pass"}),
        ));
        let v = ok(self.post(
            app,
            b.0,
            "recon-actions",
            &json!({"force_id": b.1, "action": "pass"}),
        ));
        assert_eq!(v["state"], "ready", "{v}");
        self.scenario(app, owner)
    }
}

both_backends! {
    fn c16_s14_an_unrepaired_damaged_vehicle_is_not_fielded(app: &TestApp) {
        let g = Game::new(app, false);
        let blue = g.blue_id();
        let rhino = unit_id(&g.blue, "Rhino");
        // Recon duty naming the damaged vehicle: 422 at the field, in plain words; nothing kept.
        let p = assert_problem(g.post(app, &g.people.owner, "orders", &json!({"force_id": blue,
            "stance": "offensive", "attitude": "aggressive", "recon_unit_ids": [rhino]})), 422);
        assert_eq!(p["errors"][0]["field"], "recon_unit_ids[0]", "{p}");
        let message = p["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("damaged") && message.contains("not fielded"), "{message}");
        assert_eq!(g.scenario(app, &g.people.owner)["version"], 0);

        let v = g.play(app, None);
        // S14: True markers for Alpha and Droids only (the Rhino is not on the table).
        let b = side(&v, &blue);
        assert_eq!(b["contact_markers"]["true"], 2, "{b}");
        // No pre-battle event is rolled for the Rhino: every event roll was entered, none is
        // the Rhino's.
        let events = rolls(&v, "pre_battle_event");
        assert_eq!(events.len(), 6, "{events:?}");
        assert!(events.iter().all(|r| r["subject"] != rhino.as_str() && r["source"] == "player"));
        assert!(b["pre_battle_events"].as_array().unwrap().is_empty());
    }

    fn rules_1_13_s3_3_self_less_droid_troopers_are_relentless(app: &TestApp) {
        let g = Game::new(app, false);
        let blue = g.blue_id();
        let droids = unit_id(&g.blue, "Droids");
        let p = assert_problem(g.post(app, &g.people.owner, "orders", &json!({"force_id": blue,
            "stance": "offensive", "attitude": "aggressive", "recon_unit_ids": [droids]})), 422);
        assert_eq!(p["errors"][0]["field"], "recon_unit_ids[0]", "{p}");
        assert_eq!(p["errors"][0]["message"],
            "a unit with the droid_troopers trait is also relentless and cannot go on recon duty");
        // §3.6: Offensive 5 per platoon − 1 for the Relentless droid squad = 4 dummies.
        let v = g.play(app, None);
        assert_eq!(side(&v, &blue)["contact_markers"], json!({"true": 2, "dummy": 4}));
        assert_eq!(side(&v, &g.red_id())["contact_marker_total"], 2 + 5);
    }

    fn rules_3_6_night_fighting_adds_a_logged_d6_of_dummy_markers(app: &TestApp) {
        let g = Game::new(app, true);
        assert_eq!(g.battle["night_fighting"], true);
        // A day battle of the same forces: no night-fighting roll to enter.
        let day = ok(app.post_json_with_token(&format!("/api/v1/campaigns/{}/battles", g.blue["campaign_id"].as_str().unwrap()),
            &json!({"sides": [{"force_id": g.blue_id()}, {"force_id": g.red_id()}]}), &g.people.owner.token));
        assert_eq!(day["night_fighting"], false);
        let p = assert_problem(app.post_json_with_token(&format!("/api/v1/battles/{}/scenario/orders", day["id"].as_str().unwrap()),
            &json!({"force_id": g.blue_id(), "stance": "offensive", "attitude": "aggressive",
                    "dice": {"night_fighting": {g.blue_id(): [4]}}}), &g.people.owner.token), 422);
        assert_eq!(p["errors"][0]["field"], format!("dice.night_fighting.{}", g.blue_id()), "{p}");
        let (blue, red) = (g.blue_id(), g.red_id());
        let v = g.play(app, Some(4));
        // Blue: 5 − 1 (Relentless droids) + 4 (entered) = 8 dummies.
        let b = side(&v, &blue);
        assert_eq!(b["contact_markers"], json!({"true": 2, "dummy": 8}));
        assert_eq!(b["night_fighting_roll"], 4);
        assert_eq!(v["night_fighting"], true);
        let own: Vec<_> = rolls(&v, "night_fighting");
        assert_eq!(own.len(), 1, "Blue sees only its own night roll: {own:?}");
        assert_eq!((own[0]["subject"].as_str(), own[0]["source"].as_str()), (Some(blue.as_str()), Some("player")));
        assert!(side(&v, &red).get("night_fighting_roll").is_none());
        // Red's was rolled by the service and logged: 2 True + 5 + d6 dummies.
        let rv = g.scenario(app, &g.people.player);
        let red_roll = rolls(&rv, "night_fighting");
        assert_eq!(red_roll.len(), 1);
        assert_eq!(red_roll[0]["source"], "server");
        let d = red_roll[0]["total"].as_u64().unwrap();
        assert!((1..=6).contains(&d));
        assert_eq!(side(&rv, &red)["contact_markers"], json!({"true": 2, "dummy": 5 + d}));
        assert_eq!(side(&rv, &blue)["contact_marker_total"], 10);
        assert!(g.sheet(app, &g.people.owner).contains("+4 dummy markers"));
        // The battle shows it.
        let battle = ok(app.get_with_token(&format!("/api/v1/battles/{}", g.id()), &g.people.player.token));
        assert_eq!(battle["night_fighting"], true);
    }

    fn rules_3_6_the_one_shot_generator_takes_night_fighting(app: &TestApp) {
        let user = crate::auth::register(app, "gamemaster");
        let side = |name: &str, stance: &str, attitude: &str, dice: Value| json!({"name": name,
            "units": [{"name": "Command", "kind": "command_squad", "resolve": "steady"},
                      {"name": "Scouts", "kind": "squad", "resolve": "steady"},
                      {"name": "Line", "kind": "squad", "resolve": "steady"}],
            "stance": stance, "attitude": attitude, "dice": dice});
        // Red: Neutral/Cautious, Assault 6 (no bonus trait touches markers); Blue: Hold.
        let red = side("Red", "neutral", "cautious", json!({"mission": mission_dice(&[("assault", 6)]),
            "night_fighting": {"Red": [3]}}));
        let blue = side("Blue", "defensive", "passive", json!({"mission": mission_dice(&[("hold", 6)])}));
        // By day the step takes no dice.
        let p = assert_problem(app.post_json_with_token("/api/v1/scenarios",
            &json!({"sides": [red, blue]}), &user.token), 422);
        assert_eq!(p["errors"][0]["field"], "sides[0].dice.night_fighting.Red", "{p}");
        let body = ok(app.post_json_with_token("/api/v1/scenarios",
            &json!({"sides": [red, blue], "night_fighting": true}), &user.token));
        assert_eq!(body["night_fighting"], true);
        assert_eq!(body["sides"][0]["mission"], "assault");
        // Neutral: 5 + 2 per platoon, + 3 entered = 10 dummies; 3 True.
        assert_eq!(body["sides"][0]["contact_markers"], json!({"true": 3, "dummy": 10}));
        assert_eq!(body["sides"][0]["night_fighting_roll"], 3);
        let night = rolls(&body, "night_fighting");
        assert_eq!(night.len(), 2, "{night:?}");
        assert_eq!((night[0]["source"].as_str(), night[1]["source"].as_str()), (Some("player"), Some("server")));
        // Blue, Defensive: 5 − 2 + its d6.
        let d = night[1]["total"].as_u64().unwrap();
        assert_eq!(body["sides"][1]["contact_markers"]["dummy"], 3 + d);
        let page = app.get_with_token(&format!("/scenarios/{}", body["id"].as_str().unwrap()), &user.token).text().unwrap();
        assert!(page.contains("Night fighting") && page.contains("+3 dummy markers"), "{page}");
    }

    fn s12_every_mission_bonus_trait_names_its_unit_in_secret(app: &TestApp) {
        let g = Game::new(app, false);
        let (blue, red) = (g.blue_id(), g.red_id());
        let v = g.play(app, None);
        // Assault: Assault Troops + Hardened; both go to the first fielded squad without them.
        let alpha = unit_id(&g.blue, "Alpha");
        assert_eq!(side(&v, &blue)["bonus_traits"], json!([
            {"trait": "assault_troops", "unit_id": alpha, "unit_name": "Alpha"},
            {"trait": "hardened", "unit_id": alpha, "unit_name": "Alpha"}]));
        let rv = g.scenario(app, &g.people.player);
        assert_eq!(side(&rv, &red)["bonus_traits"], json!([
            {"trait": "brave", "unit_id": unit_id(&g.red, "Delta"), "unit_name": "Delta"},
            {"trait": "shock_troops", "unit_id": unit_id(&g.red, "Delta"), "unit_name": "Delta"}]));
        // Secret like the mission (S11): Red sees neither Blue's traits nor where they went.
        assert!(side(&rv, &blue).get("bonus_traits").is_none());
        let red_sheet = g.sheet(app, &g.people.player);
        assert!(!red_sheet.contains("assault troops"), "{red_sheet}");
        assert!(red_sheet.contains("brave → Delta"), "{red_sheet}");
        assert!(g.sheet(app, &g.people.owner).contains("hardened → Alpha"));
    }

    fn c2_c4_c16_contradictory_losses_are_refused_line_by_line(app: &TestApp) {
        let g = Game::new(app, false);
        let path = format!("/api/v1/battles/{}/result", g.id());
        let (alpha, delta, rhino) = (unit_id(&g.blue, "Alpha"), unit_id(&g.red, "Delta"), unit_id(&g.blue, "Rhino"));
        let record = |losses: Value| app.post_json_with_token(&path,
            &json!({"outcome": "draw", "losses": losses}), &g.people.owner.token);
        let refused = |losses: Value, field: &str| {
            let p = assert_problem(record(losses), 422);
            assert_eq!(p["errors"][0]["field"], field, "{p}");
            let message = p["errors"][0]["message"].as_str().unwrap().to_owned();
            for rust in ["u32", "i64", "integer", "struct", "body"] {
                assert!(!message.contains(rust), "{message}");
            }
            message
        };
        let fine = json!({"unit_id": alpha, "figures_lost": 1});
        // Eliminated, yet 3 of Delta's 6 figures lost (C4: all of them).
        let m = refused(json!([fine, {"unit_id": delta, "figures_lost": 3, "eliminated": true}]), "losses[1].figures_lost");
        assert!(m.contains("all 6 figures"), "{m}");
        refused(json!([{"unit_id": delta, "figures_lost": 0, "eliminated": true}]), "losses[0].figures_lost");
        // More than it had; negative; vehicle damage on a squad; an eliminated vehicle "damaged".
        refused(json!([{"unit_id": delta, "figures_lost": 7}]), "losses[0].figures_lost");
        let m = refused(json!([fine, {"unit_id": delta, "figures_lost": -1}]), "losses[1].figures_lost");
        assert!(m.contains("negative"), "{m}");
        refused(json!([{"unit_id": delta, "vehicle_damage": "damaged"}]), "losses[0].vehicle_damage");
        refused(json!([fine, {"unit_id": rhino, "eliminated": true, "vehicle_damage": "damaged"}]), "losses[1].vehicle_damage");
        // Nothing was recorded.
        assert_eq!(ok(app.get_with_token(&format!("/api/v1/battles/{}", g.id()), &g.people.owner.token))["state"], "scenario");
        // Eliminated with the count left out: every figure, and the stored result says so.
        let b = ok(record(json!([{"unit_id": delta, "eliminated": true}])));
        assert_eq!(b["state"], "pending");
        assert_eq!(b["result"]["losses"][0]["figures_lost"], 6);
        assert_eq!(b["result"]["losses"][0]["eliminated"], true);
    }

    fn an_organiser_playing_a_side_does_not_confirm_their_own_result(app: &TestApp) {
        let people = People::register(app);
        let world = World::build(app, &people);
        let mine = crate::forces::create_force(app, &people.organiser, &world.campaign_id, &red_roster());
        let theirs = crate::forces::create_force(app, &people.player, &world.campaign_id, &red_roster());
        let battle = ok(app.post_json_with_token(&format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": mine["id"]}, {"force_id": theirs["id"]}]}), &people.organiser.token));
        let id = battle["id"].as_str().unwrap();
        let result = json!({"outcome": "win", "winner_force_id": mine["id"], "losses": []});
        // The organiser plays a side: their record waits for the opponent.
        let b = ok(app.post_json_with_token(&format!("/api/v1/battles/{id}/result"), &result, &people.organiser.token));
        assert_eq!(b["state"], "pending");
        assert!(b["confirmed_by"].is_null());
        let confirm = format!("/api/v1/battles/{id}/result/confirm");
        assert_problem(app.post_json_with_token(&confirm, &json!({}), &people.organiser.token), 403);
        let b = ok(app.post_json_with_token(&confirm, &json!({}), &people.player.token));
        assert_eq!(b["state"], "aftermath");
        // A referee (an organiser playing neither side) records a final result at once.
        let other = crate::forces::create_force(app, &people.owner, &world.campaign_id, &red_roster());
        let refereed = ok(app.post_json_with_token(&format!("/api/v1/campaigns/{}/battles", world.campaign_id),
            &json!({"sides": [{"force_id": other["id"]}, {"force_id": theirs["id"]}]}), &people.organiser.token));
        let rid = refereed["id"].as_str().unwrap();
        let b = ok(app.post_json_with_token(&format!("/api/v1/battles/{rid}/result"),
            &json!({"outcome": "draw", "losses": []}), &people.organiser.token));
        assert_eq!(b["state"], "aftermath");
    }
}
