//! The `gzg-fma-1999` ruleset (docs/rules.md §11, readings M1–M13) through HTTP on both
//! backends: its vocabulary, figure rosters, the post-battle sequence on figures with entered
//! dice (casualty roll, Motivation change, new figures by team), the menu, the marker draw, the
//! scenario refusal and a whole two-battle campaign. Expected values are computed by hand from
//! docs/rules.md §11.

use serde_json::{Value, json};

use crate::auth::{TestUser, register};
use crate::battles::{get, ok, post, post_keyed, step_path, unit, unit_id};
use crate::campaigns::{invite_code, join};
use crate::common::{TestApp, assert_problem};

const ID: &str = "gzg-fma-1999";

fn rifle() -> Value {
    json!({"name": "Assault rifle", "bands": [
        {"inches": 12, "firepower": "d10"}, {"inches": 24, "firepower": "d8"},
        {"inches": 36, "firepower": "d6"}], "impact": "d10"})
}

fn figure(name: &str, experience: &str, motivation: u8) -> Value {
    json!({"name": name, "kind": "character", "strength": 1, "starting_strength": 1,
           "fma": {"experience": experience, "motivation": motivation, "armour": "light",
                   "weapons": [rifle()]}})
}

fn with_role(mut figure: Value, role: &str) -> Value {
    figure["fma"]["role"] = json!(role);
    figure
}

fn team(force: &str, team: &str, figures: Vec<Value>) -> Value {
    json!({"name": force, "platoons": [{"name": team, "units": figures}]})
}

/// Team Bravo: four Veterans, Motivation 1/2/2/3, light armour (d6), assault rifles.
fn bravo() -> Value {
    team(
        "Strike force",
        "Bravo",
        vec![
            figure("b1", "veteran", 1),
            figure("b2", "veteran", 2),
            figure("b3", "veteran", 2),
            figure("b4", "veteran", 3),
        ],
    )
}

/// The seed's Police team (Green 1 leader, Veteran 2, Regular 2, Regular 3, Veteran 3).
fn police() -> Value {
    team(
        "Police",
        "Patrol",
        vec![
            with_role(figure("Sergeant", "green", 1), "leader"),
            figure("Officer A", "veteran", 2),
            figure("Officer B", "regular", 2),
            figure("Officer C", "regular", 3),
            figure("Officer D", "veteran", 3),
        ],
    )
}

#[track_caller]
fn fma_campaign(app: &TestApp, organiser: &TestUser) -> String {
    crate::rulesets::named_campaign_under(
        app,
        organiser,
        "Precinct war",
        json!({"id": ID, "version": 1}),
    )
}

use crate::rulesets::create_force as create;

struct Fought {
    organiser: TestUser,
    player: TestUser,
    campaign_id: String,
    battle: String,
    blue: Value,
    red: Value,
}

impl Fought {
    fn blue_id(&self) -> &str {
        self.blue["id"].as_str().unwrap()
    }
    fn path(&self, step: &str) -> String {
        step_path(&self.battle, self.blue_id(), step)
    }
    fn id(&self, name: &str) -> String {
        unit_id(&self.blue, name)
    }
}

/// A confirmed battle: Police won; Bravo's b2 and b3 were down at the end.
fn fought(app: &TestApp) -> Fought {
    let organiser = register(app, "organiser");
    let player = register(app, "player");
    let campaign_id = fma_campaign(app, &organiser);
    let code = invite_code(app, &organiser, &campaign_id);
    assert_eq!(join(app, &player, &code).status(), 201);
    let blue = crate::forces::create_force(app, &organiser, &campaign_id, &bravo());
    let red = crate::forces::create_force(app, &player, &campaign_id, &police());
    let battle = battle_between(app, &organiser, &campaign_id, &blue, &red);
    result(
        app,
        &organiser,
        &player,
        &battle,
        &red,
        &[(&blue, "b2"), (&blue, "b3")],
    );
    Fought {
        organiser,
        player,
        campaign_id,
        battle,
        blue,
        red,
    }
}

fn battle_between(
    app: &TestApp,
    organiser: &TestUser,
    campaign_id: &str,
    a: &Value,
    b: &Value,
) -> String {
    ok(post_keyed(
        app,
        organiser,
        &format!("/api/v1/campaigns/{campaign_id}/battles"),
        &json!({"sides": [{"force_id": a["id"]}, {"force_id": b["id"]}]}),
        &format!("battle-{}-{}", a["id"].as_str().unwrap(), b["version"]),
    ))["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// `organiser` records that `winner` won with the figures `down` down; `player` confirms.
fn result(
    app: &TestApp,
    organiser: &TestUser,
    player: &TestUser,
    battle: &str,
    winner: &Value,
    down: &[(&Value, &str)],
) {
    let losses: Vec<Value> = down
        .iter()
        .map(|(force, name)| json!({"unit_id": unit_id(force, name), "figures_lost": 1}))
        .collect();
    ok(post(
        app,
        organiser,
        &format!("/api/v1/battles/{battle}/result"),
        &json!({"outcome": "win", "winner_force_id": winner["id"], "losses": losses}),
    ));
    ok(post(
        app,
        player,
        &format!("/api/v1/battles/{battle}/result/confirm"),
        &json!({}),
    ));
}

fn steps(next_dice: &Value) -> Vec<(String, String, String, String)> {
    next_dice
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["step"].as_str().unwrap().to_owned(),
                d["unit_name"].as_str().unwrap_or("pool").to_owned(),
                d["dice"].as_str().unwrap().to_owned(),
                d["label"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn s(step: &str, name: &str, dice: &str, label: &str) -> (String, String, String, String) {
    (
        step.to_owned(),
        name.to_owned(),
        dice.to_owned(),
        label.to_owned(),
    )
}

fn fma(roster: &Value, name: &str) -> Value {
    unit(roster, name)["fma"].clone()
}

/// Blue's aftermath rolled with b2 = `b2`, b3 = `b3` on the casualty table, then Motivation
/// change b1 6, b2 1, b4 4 (where b2 rolls) and the pool 1 + 1.
fn rolled(app: &TestApp, f: &Fought, b2: u8, b3: u8) -> Value {
    let blue = f.blue_id().to_owned();
    let mut motivation = json!({f.id("b1"): [6], f.id("b4"): [4]});
    if b2 <= 2 {
        motivation[f.id("b2")] = json!([1]);
    }
    ok(post(
        app,
        &f.organiser,
        &f.path("roll"),
        &json!({"dice": {
        "casualty": {f.id("b2"): [b2], f.id("b3"): [b3]},
        "resolve_change": motivation,
        "reinforcements": {blue.as_str(): [1, 1]}}}),
    ))
}

both_backends! {
    fn m2_m3_m8_m11_vocabulary_names_experience_dice_motivation_and_the_figure_steps(app: &TestApp) {
        // Act
        let response = app.get(&format!("/api/v1/rulesets/{ID}"));
        let listed: Value = app.get("/api/v1/rulesets").json().unwrap();

        // Assert
        assert_eq!(response.status(), 200);
        let v: Value = response.json().unwrap();
        assert_eq!(v["family"], "fma");
        let rungs: Vec<(String, i64)> = v["ladders"][0]["rungs"].as_array().unwrap().iter()
            .map(|r| (r["key"].as_str().unwrap().to_owned(), r["number"].as_i64().unwrap())).collect();
        assert_eq!(v["ladders"][0]["ladder"], "experience");
        assert_eq!(rungs, [("untrained".to_owned(), 4), ("green".to_owned(), 6), ("regular".to_owned(), 8),
            ("veteran".to_owned(), 10), ("elite".to_owned(), 12)]);
        assert_eq!(v["ladders"][1]["ladder"], "motivation");
        let steps: Vec<(&str, &str)> = v["roll_steps"].as_array().unwrap().iter()
            .map(|s| (s["step"].as_str().unwrap(), s["label"].as_str().unwrap())).collect();
        assert_eq!(steps, [("casualty", "Casualty"), ("vehicle_replacement", "Vehicle replacements"),
            ("resolve_change", "Motivation change"), ("reinforcements", "Reinforcements")]);
        assert_eq!(v["roll_steps"][0]["rows"], json!(["returns", "returns", "seriously_wounded",
            "seriously_wounded", "dead", "dead"]));
        assert_eq!(v["fma"]["experience"][3], json!({"name": "veteran", "quality_die": "d10", "marker": "orange"}));
        assert_eq!(v["fma"]["motivation"][0], json!({"level": 1, "name": "high"}));
        assert_eq!(v["fma"]["armour"][0], json!({"name": "non_combatant"}));
        assert_eq!(v["fma"]["armour"][2], json!({"name": "light", "die": "d6"}));
        let sold: Vec<&str> = v["menu"].as_array().unwrap().iter().filter(|m| m["enabled"] == true)
            .map(|m| m["item"].as_str().unwrap()).collect();
        assert_eq!(sold, ["improve_quality", "improve_resolve", "extra_reinforcement_die",
            "return_lone_figure", "repair_vehicle", "replace_vehicle"]);
        let readings: Vec<&str> = v["readings"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(readings.len(), 13);
        assert!(listed["rulesets"].as_array().unwrap().iter().any(|r| r["id"] == ID), "{listed}");
    }

    fn m1_m2_m9_bravo_of_four_veterans_validates_with_d10_dice_and_no_points(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let campaign_id = fma_campaign(app, &organiser);

        // Act
        let made = crate::forces::create_force(app, &organiser, &campaign_id, &bravo());
        let read = get(app, &organiser, &format!("/api/v1/forces/{}", made["id"].as_str().unwrap()));

        // Assert
        for force in [&made, &read] {
            assert_eq!(force["family"], "fma", "{force}");
            assert_eq!(force["points"], Value::Null);
            assert!(force["unpriced_reason"].as_str().unwrap().contains("003 l.1"), "{force}");
            assert_eq!(force["platoons"][0]["points"], Value::Null);
            for name in ["b1", "b2", "b3", "b4"] {
                assert_eq!(unit(force, name)["quality_die"], "d10", "{force}");
                assert_eq!(unit(force, name)["points"], Value::Null);
            }
            let motivation: Vec<i64> = ["b1", "b2", "b3", "b4"].iter()
                .map(|n| fma(force, n)["motivation"].as_i64().unwrap()).collect();
            assert_eq!(motivation, [1, 2, 2, 3]);
            assert_eq!(fma(force, "b1")["weapons"][0]["bands"][2], json!({"inches": 36, "firepower": "d6"}));
            assert_eq!(fma(force, "b1")["weapons"][0]["impact"], "d10");
            assert_eq!(fma(force, "b1")["armour"], "light");
        }
    }

    fn m2_m3_motivation_4_is_refused_novice_reads_as_untrained_and_d12_stays_d12(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let campaign_id = fma_campaign(app, &organiser);
        let mut heavy = figure("Hulk", "elite", 1);
        heavy["fma"]["armour"] = json!("very_heavy");
        heavy["fma"]["toughness"] = json!("incredibly_tough");

        // Act
        let four = create(app, &organiser, &campaign_id, &team("Bad", "Alpha", vec![figure("x", "regular", 4)]));
        let novice = crate::forces::create_force(app, &organiser, &campaign_id,
            &team("Rookies", "Alpha", vec![figure("Rook", "novice", 3), heavy]));
        let squad = create(app, &organiser, &campaign_id, &crate::forces::small_roster("FAD kit"));

        // Assert
        let problem = assert_problem(four, 422);
        assert_eq!(problem["errors"][0]["field"], "platoons[0].units[0].fma.motivation", "{problem}");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("M3"));
        assert_eq!(fma(&novice, "Rook")["experience"], "untrained");
        assert_eq!(unit(&novice, "Rook")["quality_die"], "d4");
        assert_eq!(fma(&novice, "Hulk")["toughness"], "incredibly_tough");
        assert_eq!(unit(&novice, "Hulk")["quality_die"], "d12");
        let problem = assert_problem(squad, 422);
        assert!(problem["errors"][0]["field"].as_str().unwrap().starts_with("platoons[0].units[0]"), "{problem}");
    }

    fn m3_the_seeds_police_team_validates(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let campaign_id = fma_campaign(app, &organiser);

        // Act
        let made = crate::forces::create_force(app, &organiser, &campaign_id, &police());

        // Assert
        let got: Vec<(String, i64, String)> = made["platoons"][0]["units"].as_array().unwrap().iter()
            .map(|u| (u["fma"]["experience"].as_str().unwrap().to_owned(), u["fma"]["motivation"].as_i64().unwrap(),
                u["quality_die"].as_str().unwrap().to_owned())).collect();
        let g = |e: &str, m: i64, d: &str| (e.to_owned(), m, d.to_owned());
        assert_eq!(got, [g("green", 1, "d6"), g("veteran", 2, "d10"), g("regular", 2, "d8"),
            g("regular", 3, "d8"), g("veteran", 3, "d10")]);
        assert_eq!(fma(&made, "Sergeant")["role"], "leader");
    }

    fn m4_m5_m6_two_of_four_down_roll_casualty_then_motivation_change(app: &TestApp) {
        // Arrange
        let f = fought(app);
        let (b1, b2, b3, b4) = (f.id("b1"), f.id("b2"), f.id("b3"), f.id("b4"));

        // Act
        let before = get(app, &f.organiser, &format!("/api/v1/battles/{}/aftermath/{}", f.battle, f.blue_id()));
        let examined = ok(post(app, &f.organiser, &f.path("roll"), &json!({"step": "casualty",
            "dice": {"casualty": {b2.as_str(): [2], b3.as_str(): [5]}}})));
        let changed = ok(post(app, &f.organiser, &f.path("roll"), &json!({"step": "resolve_change",
            "dice": {"resolve_change": {b1.as_str(): [6], b2.as_str(): [1], b4.as_str(): [4]}}})));

        // Assert: exactly two casualty rolls, never replacement or quality loss.
        assert_eq!(before["ruleset"], json!({"id": ID, "version": 1}));
        assert_eq!(steps(&before["next_dice"]), [s("casualty", "b2", "1d6", "Casualty"), s("casualty", "b3", "1d6", "Casualty")]);
        let after = &examined["outcome"]["roster"];
        assert_eq!((unit(after, "b2")["status"].as_str(), unit(after, "b2")["strength"].as_i64()), (Some("active"), Some(1)));
        assert_eq!(unit(after, "b3")["status"], "eliminated");
        assert_eq!(fma(after, "b3")["dead"], true, "5 is dead: {examined}");
        assert_eq!(steps(&examined["next_dice"]), [
            s("resolve_change", "b1", "1d6", "Motivation change"),
            s("resolve_change", "b2", "1d6", "Motivation change"),
            s("resolve_change", "b4", "1d6", "Motivation change")]);
        // b1 1 → 6 stays 1; b2 2 → 1 drops to 3; b4 3 → 4 stays 3.
        let after = &changed["outcome"]["roster"];
        let levels: Vec<i64> = ["b1", "b2", "b4"].iter().map(|n| fma(after, n)["motivation"].as_i64().unwrap()).collect();
        assert_eq!(levels, [1, 3, 3], "{changed}");
        assert_eq!(steps(&changed["next_dice"]), [s("reinforcements", "pool", "2d6", "")]);
        for body in [&before, &examined, &changed] {
            let text = body.to_string();
            assert!(!text.contains("\"replacement\"") && !text.contains("quality_loss"), "{text}");
        }
    }

    fn m4_m8_an_out_figure_returns_for_1_cp_and_a_dead_one_is_refused(app: &TestApp) {
        // Arrange: b2 rolls 3 (out), b3 rolls 5 (dead).
        let f = fought(app);
        rolled(app, &f, 3, 5);

        // Act
        let dead = post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "return_lone_figure", "unit_id": f.id("b3")}]}));
        let back = ok(post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "return_lone_figure", "unit_id": f.id("b2")}]})));

        // Assert
        let problem = assert_problem(dead, 422);
        assert_eq!(problem["errors"][0]["field"], "purchases[0].unit_id", "{problem}");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("dead"), "{problem}");
        assert_eq!(back["pending"]["cp_spent"], 1, "{back}");
        let b2 = unit(&back["outcome"]["roster"], "b2");
        assert_eq!((b2["status"].as_str(), b2["strength"].as_i64()), (Some("active"), Some(1)));
    }

    fn m8_two_cp_for_one_team_never_to_elite_and_motivation_for_1_cp(app: &TestApp) {
        // Arrange: b2 returns (2) and drops to Motivation 3 (1); b3 dead (5).
        let f = fought(app);
        let rolled = rolled(app, &f, 2, 5);

        // Act
        let elite = post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "improve_experience", "unit_id": f.id("b1")}]}));
        let bought = ok(post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "improve_motivation", "unit_id": f.id("b2")}]})));

        // Assert
        assert_eq!(rolled["pending"]["cp_available"], 2, "2 CP for one team: {rolled}");
        let problem = assert_problem(elite, 422);
        let message = problem["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("Elite") && message.contains("M8") && message.contains("000 l.3141"), "{problem}");
        assert_eq!(bought["pending"]["cp_spent"], 1, "{bought}");
        assert_eq!(fma(&bought["outcome"]["roster"], "b2")["motivation"], 2);
    }

    fn m7_reinforcements_fill_bravo_to_its_starting_four_and_the_rest_is_lost(app: &TestApp) {
        // Arrange: b2 back (2), b3 dead (5); the pool is 1 + 1 = 2 figures.
        let f = fought(app);
        rolled(app, &f, 2, 5);

        // Act
        let two = post(app, &f.organiser, &f.path("reinforcements"), &json!({"teams": [{"team": "Bravo", "figures": 2}]}));
        let small_team = post(app, &f.organiser, &f.path("reinforcements"), &json!({"new_squad": {"name": "Delta", "troopers": 2}}));
        let squads = post(app, &f.organiser, &f.path("reinforcements"), &json!({"allocations": [{"unit_id": f.id("b1"), "troopers": 1}]}));
        let one = ok(post(app, &f.organiser, &f.path("reinforcements"), &json!({"teams": [{"team": "Bravo", "figures": 1}]})));
        let done = ok(post(app, &f.organiser, &f.path("finalize"), &json!({"forgo_reinforcements": true})));
        let force = get(app, &f.organiser, &format!("/api/v1/forces/{}", f.blue_id()));

        // Assert
        let problem = assert_problem(two, 422);
        assert_eq!(problem["errors"][0]["field"], "teams[0].figures", "{problem}");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains("3 of its starting 4"), "{problem}");
        let problem = assert_problem(small_team, 422);
        assert_eq!(problem["errors"][0]["field"], "new_squad.troopers", "{problem}");
        let problem = assert_problem(squads, 422);
        assert_eq!(problem["errors"][0]["field"], "allocations", "{problem}");
        let pool = &one["outcome"]["reinforcements"];
        assert_eq!((pool["total"].as_i64(), pool["allocated"].as_i64(), pool["lost"].as_i64()), (Some(2), Some(1), Some(1)), "{one}");
        assert_eq!(done["outcome"]["reinforcements"]["lost"], 1);
        let units = force["platoons"][0]["units"].as_array().unwrap();
        assert_eq!(units.len(), 5, "b3 stays on the roster, dead and replaced: {force}");
        let recruit = &units[4];
        assert_eq!((recruit["fma"]["experience"].as_str(), recruit["fma"]["motivation"].as_i64(), recruit["quality_die"].as_str()),
            (Some("green"), Some(3), Some("d6")), "{force}");
        let active = units.iter().filter(|u| u["status"] == "active").count();
        assert_eq!(active, 4, "Bravo 3 → 4");
        assert_eq!(fma(&force, "b3")["replaced"], true);
    }

    fn m10_the_marker_draw_logs_one_shrinking_die_per_figure_and_picks_by_position(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let campaign_id = fma_campaign(app, &organiser);
        let fad = ok(app.post_json_with_token("/api/v1/campaigns", &json!({"name": "FAD"}), &organiser.token));
        let m = |experience: &str, motivation: u8| json!({"experience": experience, "motivation": motivation});
        let pool = json!([m("green", 2), m("regular", 2), m("regular", 2), m("regular", 2), m("regular", 2),
            m("veteran", 2), m("veteran", 2), m("regular", 3)]);
        let body = json!({"method": "markers", "name": "Drawn", "teams": [{"name": "Bravo", "figures": 4,
            "weapons": [rifle()]}], "markers": pool, "dice": {"marker_draw": {"Bravo": [1, 7, 5, 1]}}});
        let path = format!("/api/v1/campaigns/{campaign_id}/forces/generate");

        // Act
        let drawn = ok(post_keyed(app, &organiser, &path, &body, "draw-1"));
        let again = ok(post_keyed(app, &organiser, &path, &body, "draw-1"));
        let too_big = post(app, &organiser, &path, &json!({"method": "markers", "name": "X",
            "teams": [{"name": "Bravo", "figures": 2}], "markers": pool, "dice": {"marker_draw": {"Bravo": [1, 8]}}}));
        let basic = post(app, &organiser, &path, &json!({"method": "basic", "platoons": 1, "name": "Red"}));
        let in_fad = post(app, &organiser, &format!("/api/v1/campaigns/{}/forces/generate", fad["id"].as_str().unwrap()), &body);

        // Assert
        let dice: Vec<&str> = drawn["rolls"].as_array().unwrap().iter().map(|r| r["dice"].as_str().unwrap()).collect();
        assert_eq!(dice, ["1d8", "1d7", "1d6", "1d5"], "{drawn}");
        assert!(drawn["rolls"].as_array().unwrap().iter().all(|r| r["step"] == "marker_draw" && r["subject"] == "Bravo"));
        let got: Vec<(String, i64)> = drawn["force"]["platoons"][0]["units"].as_array().unwrap().iter()
            .map(|u| (u["fma"]["experience"].as_str().unwrap().to_owned(), u["fma"]["motivation"].as_i64().unwrap())).collect();
        let g = |e: &str, m: i64| (e.to_owned(), m);
        assert_eq!(got, [g("green", 2), g("regular", 3), g("veteran", 2), g("regular", 2)]);
        assert_eq!(drawn["force"]["points"], Value::Null);
        assert_eq!(again["force"]["id"], drawn["force"]["id"], "the key answers the first draw again");
        let problem = assert_problem(too_big, 422);
        assert!(problem.to_string().contains("marker_draw"), "{problem}");
        assert_eq!(basic.status(), 409);
        assert_eq!(in_fad.status(), 409);
    }

    fn m11_scenario_generation_is_refused_with_a_plain_sentence(app: &TestApp) {
        // Arrange
        let organiser = register(app, "organiser");
        let player = register(app, "player");
        let campaign_id = fma_campaign(app, &organiser);
        let code = invite_code(app, &organiser, &campaign_id);
        assert_eq!(join(app, &player, &code).status(), 201);
        let blue = crate::forces::create_force(app, &organiser, &campaign_id, &bravo());
        let red = crate::forces::create_force(app, &player, &campaign_id, &police());
        let battle = battle_between(app, &organiser, &campaign_id, &blue, &red);

        // Act
        let orders = post(app, &organiser, &format!("/api/v1/battles/{battle}/scenario/orders"),
            &json!({"force_id": blue["id"], "stance": "defensive", "attitude": "cautious"}));
        let one_shot = post(app, &organiser, "/api/v1/scenarios", &json!({"ruleset": ID, "sides": [
            {"name": "A", "units": [{"name": "S", "kind": "squad"}], "stance": "neutral", "attitude": "passive"},
            {"name": "B", "units": [{"name": "S", "kind": "squad"}], "non_player": true}]}));

        // Assert
        let problem = assert_problem(orders, 422);
        assert_eq!(problem["errors"][0]["field"], "scenario", "{problem}");
        let message = problem["errors"][0]["message"].as_str().unwrap();
        assert!(message.starts_with("No scenario is generated under FMA playtest"), "{message}");
        assert!(message.contains("record its result"), "{message}");
        let problem = assert_problem(one_shot, 422);
        assert!(problem.to_string().contains("No scenario is generated"), "{problem}");
    }

    fn m1_m4_m6_m7_m8_a_whole_campaign_of_two_players_and_two_battles(app: &TestApp) {
        // Arrange: Blue (Bravo) and Red (Police) fight twice.
        let f = fought(app);
        let red_id = f.red["id"].as_str().unwrap().to_owned();
        let red_path = |battle: &str, step: &str| step_path(battle, &red_id, step);

        // Act: battle 1. Blue: b2 back (2), b3 dead (5); b1 6, b2 1, b4 4; pool 1 + 1, one recruit.
        rolled(app, &f, 2, 5);
        ok(post(app, &f.organiser, &f.path("purchases"), &json!({"purchases": [
            {"item": "improve_motivation", "unit_id": f.id("b2")}]})));
        ok(post(app, &f.organiser, &f.path("reinforcements"), &json!({"teams": [{"team": 0, "figures": 1}]})));
        ok(post(app, &f.organiser, &f.path("finalize"), &json!({"forgo_reinforcements": true})));
        // Red lost nothing: no casualty or Motivation roll, only the pool (3 + 4, nothing lost
        // in Police, so no team has room: all 7 lost); Officer C (regular) buys Veteran.
        let red_before = get(app, &f.player, &format!("/api/v1/battles/{}/aftermath/{red_id}", f.battle));
        ok(post(app, &f.player, &red_path(&f.battle, "roll"), &json!({"dice": {"reinforcements": {red_id.as_str(): [3, 4]}}})));
        ok(post(app, &f.player, &red_path(&f.battle, "purchases"), &json!({"purchases": [
            {"item": "improve_experience", "unit_id": unit_id(&f.red, "Officer C")}]})));
        let red_done = ok(post(app, &f.player, &red_path(&f.battle, "finalize"), &json!({"forgo_reinforcements": true})));

        // Battle 2: Blue wins; Red's Officer A is down and rolls 6 (dead).
        let blue_now = get(app, &f.organiser, &format!("/api/v1/forces/{}", f.blue_id()));
        let red_now = get(app, &f.player, &format!("/api/v1/forces/{red_id}"));
        let second = battle_between(app, &f.organiser, &f.campaign_id, &blue_now, &red_now);
        result(app, &f.organiser, &f.player, &second, &blue_now, &[(&red_now, "Officer A")]);
        let red_second = get(app, &f.player, &format!("/api/v1/battles/{second}/aftermath/{red_id}"));
        let officers = ["Sergeant", "Officer B", "Officer C", "Officer D"];
        let mut motivation = json!({});
        for (name, die) in officers.iter().zip([3, 5, 2, 1]) {
            motivation[unit_id(&red_now, name)] = json!([die]);
        }
        ok(post(app, &f.player, &red_path(&second, "roll"), &json!({"dice": {
            "casualty": {unit_id(&red_now, "Officer A"): [6]},
            "resolve_change": motivation,
            "reinforcements": {red_id.as_str(): [2, 2]}}})));
        let red_second_done = ok(post(app, &f.player, &red_path(&second, "finalize"), &json!({"forgo_reinforcements": true})));
        // Blue lost nothing: only its pool (6 + 6), and no team has room for a figure.
        let blue_second = get(app, &f.organiser, &format!("/api/v1/battles/{second}/aftermath/{}", f.blue_id()));
        let blue_path = |step: &str| step_path(&second, f.blue_id(), step);
        ok(post(app, &f.organiser, &blue_path("roll"), &json!({"dice": {"reinforcements": {f.blue_id(): [6, 6]}}})));
        let full = post(app, &f.organiser, &blue_path("reinforcements"), &json!({"teams": [{"team": "Bravo", "figures": 1}]}));
        ok(post(app, &f.organiser, &blue_path("finalize"), &json!({"forgo_reinforcements": true})));
        let standings = get(app, &f.organiser, &format!("/api/v1/campaigns/{}/standings", f.campaign_id));
        let red_final = get(app, &f.player, &format!("/api/v1/forces/{red_id}"));

        // Assert
        assert_eq!(steps(&red_before["next_dice"]), [s("reinforcements", "pool", "2d6", "")]);
        assert_eq!(red_done["outcome"]["reinforcements"]["lost"], 7, "{red_done}");
        assert_eq!(fma(&red_now, "Officer C")["experience"], "veteran");
        assert_eq!(unit(&red_now, "Officer C")["quality_die"], "d10");
        assert_eq!(fma(&blue_now, "b2")["motivation"], 2);
        assert_eq!(blue_now["platoons"][0]["units"].as_array().unwrap().len(), 5);
        let due: Vec<String> = red_second["next_dice"].as_array().unwrap().iter()
            .map(|d| d["unit_name"].as_str().unwrap().to_owned()).collect();
        assert_eq!(due, ["Officer A"]);
        // Sergeant 1, die 3: stays 1; B 2, die 5: to 1; C 3, die 2: stays 3; D 3, die 1: stays 3.
        let levels: Vec<i64> = officers.iter().map(|n| fma(&red_final, n)["motivation"].as_i64().unwrap()).collect();
        assert_eq!(levels, [1, 1, 3, 3], "{red_final}");
        assert_eq!(fma(&red_final, "Officer A")["dead"], true);
        // Officer A's place is open: a pool of 4 could have filled it, but the player gave it up.
        assert_eq!(red_second_done["outcome"]["reinforcements"]["lost"], 4);
        assert_eq!(steps(&blue_second["next_dice"]), [s("reinforcements", "pool", "2d6", "")]);
        let problem = assert_problem(full, 422);
        assert!(problem.to_string().contains("5 of its starting 5") || problem.to_string().contains("4 of its starting 4"), "{problem}");
        let row = |id: &str| standings["forces"].as_array().unwrap().iter().find(|r| r["force_id"] == id).unwrap().clone();
        let line = |r: &Value| ["battles", "wins", "losses", "campaign_points_earned", "campaign_points_balance"]
            .map(|k| r[k].as_i64().unwrap());
        // Each: two battles, one won; 2 CP per battle for its one team, 1 spent.
        assert_eq!(line(&row(f.blue_id())), [2, 1, 1, 4, 3], "{standings}");
        assert_eq!(line(&row(&red_id)), [2, 1, 1, 4, 3], "{standings}");
    }

    fn m12_no_run_of_eight_seed_words_in_the_served_pages_and_answers(app: &TestApp) {
        // Arrange: a played battle, so the aftermath pages and answers have figures in them.
        let f = fought(app);
        rolled(app, &f, 3, 5);
        let id = f.blue_id().to_owned();
        let mut browser = crate::web_aftermath::signed_in(app, &f.organiser);
        let orders = post(app, &f.organiser, &format!("/api/v1/battles/{}/scenario/orders", f.battle),
            &json!({"force_id": id, "stance": "defensive", "attitude": "cautious"})).text().unwrap();

        // Act
        let mut texts: Vec<(String, String)> = [
            format!("/rules/{ID}"), "/rules".to_owned(), format!("/forces/{id}"), format!("/forces/{id}/cards"),
            format!("/forces/{id}/edit"), format!("/forces/{id}/history"),
            format!("/battles/{}/aftermath/{id}", f.battle), format!("/campaigns/{}", f.campaign_id),
            "/campaigns/new".to_owned(),
        ].into_iter().map(|path| { let text = browser.get(&path).text().unwrap(); (path, text) }).collect();
        for path in [format!("/api/v1/rulesets/{ID}"), "/api/v1/rulesets".to_owned(),
            format!("/api/v1/campaigns/{}/rules", f.campaign_id), format!("/api/v1/forces/{id}"),
            format!("/api/v1/battles/{}/aftermath/{id}", f.battle), "/api-docs/openapi.json".to_owned()] {
            texts.push((path.clone(), app.get_with_token(&path, &f.organiser.token).text().unwrap()));
        }
        texts.push(("the scenario refusal".to_owned(), orders));

        // Assert
        let seed = crate::licence::seed_shingles();
        for (name, text) in &texts {
            assert!(text.len() > 50, "{name} answered: {text}");
            let found = crate::licence::borrowed(text, &seed);
            assert!(found.is_empty(), "{name} repeats the FMA draft: {found:?}");
        }
        let _ = (&f.player, &f.red);
    }

    fn m1_m4_an_fma_force_exports_and_imports_with_its_figures_and_their_fates(app: &TestApp) {
        // Arrange: a played force (b3 dead, b2 out), and a second FMA campaign and a FAD one.
        let f = fought(app);
        rolled(app, &f, 3, 5);
        ok(post(app, &f.organiser, &f.path("finalize"), &json!({"forgo_reinforcements": true})));
        let other = fma_campaign(app, &f.organiser);
        let fad = ok(app.post_json_with_token("/api/v1/campaigns", &json!({"name": "FAD"}), &f.organiser.token));

        // Act
        let exported: Value = app.get_with_token(&format!("/api/v1/forces/{}/export", f.blue_id()), &f.organiser.token).json().unwrap();
        let imported = ok(post_keyed(app, &f.organiser, &format!("/api/v1/campaigns/{other}/forces/import"), &exported, "import-1"));
        let into_fad = post(app, &f.organiser, &format!("/api/v1/campaigns/{}/forces/import", fad["id"].as_str().unwrap()), &exported);

        // Assert
        assert_eq!(imported["family"], "fma", "{imported}");
        assert_eq!(imported["points"], Value::Null);
        assert_eq!(fma(&imported, "b3")["dead"], true);
        assert_eq!(unit(&imported, "b2")["status"], "eliminated");
        assert_eq!(unit(&imported, "b1")["quality_die"], "d10");
        assert_ne!(unit(&imported, "b1")["id"], unit(&f.blue, "b1")["id"]);
        let problem = assert_problem(into_fad, 422);
        assert!(problem.to_string().contains("fma"), "{problem}");
    }
}
